/** How a bulk action goes to the store: items per call, and calls sent at once. */
export interface CallWindow {
  size: number;
  inFlight: number;
}

/**
 * Acts on up to `budget` items in calls of at most `window.size`, keeping up
 * to `window.inFlight` calls sent at once, until the budget is spent or an
 * answer says nothing is left (`isLast`). With more than one in flight, the
 * store starts the next call as soon as one ends instead of waiting for the
 * service to read the answer and send another: on a busy host that wait (the
 * service's turn on a CPU) was longer than the call itself. Redis still
 * serves other clients between two calls that arrived apart.
 *
 * Answers reach `onAnswer` in the order the calls were sent; a call already
 * sent when another said it was the last is still awaited and handed over.
 * Resolves true when a call said it was the last, false when the budget ran
 * out first. After a failed call, the others are awaited before it rethrows,
 * so nothing is left running behind the error.
 */
export async function callInWindow<T>(
  budget: number,
  window: CallWindow,
  call: (size: number) => Promise<T>,
  isLast: (answer: T) => boolean,
  onAnswer: (answer: T) => void = () => undefined,
): Promise<boolean> {
  const sent: Array<Promise<T>> = [];
  let unsent = budget;
  let last = false;
  const send = () => {
    const size = Math.min(window.size, unsent);
    unsent -= size;
    const pending = call(size);
    // Awaited below in order; until then a rejection must not count as unhandled.
    pending.catch(() => undefined);
    sent.push(pending);
  };
  try {
    while (unsent > 0 && sent.length < window.inFlight) send();
    while (sent.length > 0) {
      const answer = await sent[0]!;
      sent.shift();
      onAnswer(answer);
      if (isLast(answer)) last = true;
      if (!last && unsent > 0) send();
    }
  } catch (error) {
    await Promise.allSettled(sent);
    throw error;
  }
  return last;
}

/**
 * Runs `act` on each item, at most `inFlight` at once, each next one started as soon as one ends
 * (items may so end out of order). After a failure no item is started, and the ones running are
 * awaited before the first failure is rethrown: nothing is left running behind the error.
 */
export async function eachInWindow<T>(
  items: readonly T[],
  inFlight: number,
  act: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const runner = async () => {
    while (!failed && next < items.length) {
      await act(items[next++]!).catch((error: unknown) => {
        failed = true;
        throw error;
      });
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(inFlight, items.length) }, runner));
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}
