/**
 * Keeps a run at or under `maxPerSecond`: after each batch it sleeps until the time the processed
 * count would have taken at that rate. No limit: never sleeps.
 */
export class Throttle {
  private readonly startedAt = Date.now();
  private processed = 0;

  constructor(private readonly maxPerSecond: number | null | undefined) {}

  add(count: number): void {
    this.processed += count;
  }

  async wait(): Promise<void> {
    if (!this.maxPerSecond) return;
    const due = this.startedAt + (this.processed / this.maxPerSecond) * 1000;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
