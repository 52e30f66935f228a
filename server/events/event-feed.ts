/**
 * What a store gives the event hub (queue-event-hub.ts) for one queue: its
 * events from the moment the feed opened, in order, each as BullMQ's
 * QueueEvents emits it (its type, its id in the store's stream, its fields
 * with `data`/`returnvalue` parsed and `delay` a number).
 */
export interface StoreEventListener {
  event(type: string, id: string, args: Record<string, unknown>): void;
  /** A read that failed (the feed keeps trying); for the log. */
  error(error: Error): void;
}

export interface EventFeed {
  close(): Promise<void>;
}

/** Fields of a stored event as QueueEvents reads them (its `consumeEvents`): a value that does not parse stays text. */
export function parseEventFields(type: string, fields: Record<string, unknown>): Record<string, unknown> {
  const args = { ...fields };
  const parse = (field: string) => {
    if (typeof args[field] !== 'string') return;
    try {
      args[field] = JSON.parse(args[field] as string);
    } catch {
      // Left as text: an event written by another client.
    }
  };
  if (type === 'progress') parse('data');
  if (type === 'completed') parse('returnvalue');
  if (type === 'delayed' && args.delay !== undefined) args.delay = Number(args.delay);
  return args;
}
