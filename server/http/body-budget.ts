/**
 * The bytes of large response bodies the process holds at once. A reader of a big job waits here,
 * before the job is read, until its bytes fit; the bytes come back when its response closes (sent,
 * cut, or timed out). So thirty slow readers of a 5 MB job hold a few bodies at a time, not thirty.
 * First come, first served; a body larger than the whole budget is served alone.
 */
export class BodyBudget {
  private used = 0;
  private readonly waiting: Array<{ bytes: number; grant(): void }> = [];

  constructor(readonly capacity: number) {}

  /** Bytes held now. */
  get held(): number {
    return this.used;
  }

  /** Resolves with the function giving the bytes back (once) when they fit; rejects if `signal` aborts first. */
  acquire(bytes: number, signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const entry = {
        bytes,
        grant: () => {
          signal?.removeEventListener('abort', abandon);
          this.used += bytes;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.used -= bytes;
            this.grantWaiting();
          });
        },
      };
      const abandon = () => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal!.reason instanceof Error ? signal!.reason : new Error('the request was abandoned while waiting'));
      };
      if (signal?.aborted) return abandon();
      signal?.addEventListener('abort', abandon, { once: true });
      this.waiting.push(entry);
      this.grantWaiting();
    });
  }

  private grantWaiting(): void {
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (this.used > 0 && this.used + next.bytes > this.capacity) return;
      this.waiting.shift();
      next.grant();
    }
  }
}
