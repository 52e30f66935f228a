import { eachInWindow } from '../tasks/call-window.js';

/**
 * Script calls of one read sent at once. Redis runs them one after another whatever the number sent,
 * so more in flight buys nothing, while on the connection they share every command sent after them
 * waits for all of them: a history sample of 100,000 queues sent its 500 calls together (~1.5 s of
 * Redis), and a request's command behind them passed the 2-s command timeout (a 503). Four keep Redis
 * busy back to back and hold a request up by four calls at most.
 */
export const figureCallsInFlight = 4;

/** Runs `read` on each call, `figureCallsInFlight` at a time; after a failure no further call is sent. */
export const inWindow = <T>(calls: readonly T[], read: (call: T) => Promise<void>): Promise<void> =>
  eachInWindow(calls, figureCallsInFlight, read);
