import type { TestApp } from './app.js';
import type { StoreFixture } from './stores.js';

/** REST base URL of a queue of the fixture's connection. */
export function queueUrl(app: TestApp, fixture: StoreFixture, queueName: string): string {
  return `${app.api}/c/${fixture.connectionId}/queues/${encodeURIComponent(queueName)}`;
}

/** Polls `check` until it returns a truthy value; fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T> | T, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
