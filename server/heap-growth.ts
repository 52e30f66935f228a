import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection
 * kept, in percent. Left to itself V8 picks 10–300 % from the allocation rate
 * at that collection: a burst (200 clients answered 503 through a database
 * stall, each request's objects promoted while it waits) then lets the
 * service's ~50 MB of live heap grow to ~200 MB of old space before the next
 * full collection, and RSS past 300 MiB. At 50 % the old space stays near
 * 75 MB; a full collection of a heap this size takes ~30 ms.
 */
export const heapGrowthPercent = 50;

/**
 * Caps the old generation's growth for the service's own process (the entry,
 * `server/main.ts`, calls it; an application embedding Bullpen keeps its own
 * V8 settings). V8 reads the flag at every full collection, so setting it at
 * run time works under any launcher (`npm start`, the image's `node
 * dist/server/main.js`, systemd). A `--heap-growing-percent` given on the
 * command line wins.
 */
export function capHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return;
  setFlagsFromString(`--heap-growing-percent=${heapGrowthPercent}`);
}
