/**
 * Preloaded into a service child process by the load test (`--import`): on
 * SIGUSR2 it collects garbage (with --expose-gc) and prints one line of
 * memory figures, so the test reads the service's own memory, not its own.
 */
process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed, external } = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ memoryProbe: { rss, heapUsed, external } })}\n`);
});
