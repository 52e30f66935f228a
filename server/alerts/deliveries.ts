import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AlertDelivery, AlertDestination, type AlertDeliveryRow } from '../persistence/entities/alerts.js';
import type { EntityManager } from '../persistence/orm.js';
import type { UrlCipher } from '../secrets/url-cipher.js';
import type { TargetPolicy } from '../stores/target-policy.js';
import { sendDelivery, wasUnreachable, type DeliveryPayload, type SendResult } from './send-delivery.js';

const retryForMs = 60 * 60_000;
const firstRetryMs = 10_000;
const longestWaitMs = 10 * 60_000;
const duePerRound = 50;
/** Destinations sent to at once: a hung one holds one of these for its timeout, never the others. */
export const deliveryConcurrency = 4;

/** Queues one delivery per destination; a second enqueue of the same event id is a no-op (unique index). */
export async function enqueueDeliveries(
  em: EntityManager,
  destinationIds: string[],
  payload: DeliveryPayload,
  now: Date,
): Promise<void> {
  for (const destinationId of destinationIds) {
    try {
      await em.insert(AlertDelivery, {
        id: randomUUID(),
        destinationId,
        eventKey: payload.event,
        payload: JSON.stringify(payload),
        status: 'pending',
        attempts: 0,
        lastStatusCode: null,
        lastError: null,
        nextAttemptAt: now,
        createdAt: now,
        deliveredAt: null,
      });
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
    }
  }
}

/** Opens a destination's sealed URL and secret (bound to its id). */
export function openDestination(
  cipher: UrlCipher,
  row: { id: string; type: string; urlSealed: string; secretSealed: string },
) {
  return {
    type: row.type,
    url: cipher.decrypt(row.urlSealed, row.id),
    secret: cipher.decrypt(row.secretSealed, `${row.id}:secret`),
  };
}

/** Retry waits: 10 s, 20 s, 40 s … at most 10 minutes, for an hour. */
export const retryDelayMs = (attempts: number) =>
  Math.min(longestWaitMs, firstRetryMs * 2 ** Math.max(0, attempts - 1));

export interface DeliverOptions {
  now?: Date;
  concurrency?: number;
  /** Shutdown: an attempt cut short by it is not recorded (the delivery stays due, for the next holder). */
  stop?: AbortSignal;
}

/**
 * Sends what is due, up to `concurrency` destinations at once, each destination's deliveries in
 * order. Each attempt's outcome is written before that destination's next attempt is sent, so a
 * crash re-sends nothing a receiver acknowledged; a destination that does not answer is left for
 * the next round after its first timeout, so it costs one timeout per round, not one per delivery.
 */
export async function deliverDue(
  em: EntityManager,
  cipher: UrlCipher,
  policy: TargetPolicy,
  options: DeliverOptions = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const due = await em.find(
    AlertDelivery,
    { status: 'pending', nextAttemptAt: { $lte: now } },
    { orderBy: { nextAttemptAt: 'asc' }, limit: duePerRound },
  );
  const chains = [...byDestination(due).values()];
  const send = (chain: AlertDeliveryRow[]) => deliverChain(em, cipher, policy, chain, options.stop);
  const workers = Array.from(
    { length: Math.min(chains.length, options.concurrency ?? deliveryConcurrency) },
    async () => {
      for (let chain = chains.shift(); chain; chain = chains.shift()) await send(chain);
    },
  );
  await Promise.all(workers);
  return due.length;
}

function byDestination(deliveries: AlertDeliveryRow[]): Map<string, AlertDeliveryRow[]> {
  const chains = new Map<string, AlertDeliveryRow[]>();
  for (const delivery of deliveries)
    chains.set(delivery.destinationId, [...(chains.get(delivery.destinationId) ?? []), delivery]);
  return chains;
}

async function deliverChain(
  em: EntityManager,
  cipher: UrlCipher,
  policy: TargetPolicy,
  chain: AlertDeliveryRow[],
  stop?: AbortSignal,
): Promise<void> {
  const destination = await em.fork().findOne(AlertDestination, { id: chain[0]!.destinationId });
  for (const delivery of chain) {
    if (stop?.aborted) return;
    const result: SendResult = destination
      ? await sendDelivery(
          openDestination(cipher, destination),
          JSON.parse(delivery.payload) as DeliveryPayload,
          policy,
          stop,
        )
      : { delivered: false, statusCode: null, error: 'the destination was removed' };
    if (stop?.aborted && !result.delivered) return;
    await em
      .fork()
      .nativeUpdate(AlertDelivery, { id: delivery.id }, outcome(delivery, result, new Date(), !destination));
    if (wasUnreachable(result)) return;
  }
}

function outcome(delivery: AlertDeliveryRow, result: SendResult, at: Date, final: boolean): Partial<AlertDeliveryRow> {
  const attempts = delivery.attempts + 1;
  const attempt = { attempts, lastStatusCode: result.statusCode, lastError: result.error };
  if (result.delivered) return { ...attempt, status: 'delivered', deliveredAt: at };
  if (final || at.getTime() + retryDelayMs(attempts) > delivery.createdAt.getTime() + retryForMs)
    return { ...attempt, status: 'failed' };
  return { ...attempt, nextAttemptAt: new Date(at.getTime() + retryDelayMs(attempts)) };
}
