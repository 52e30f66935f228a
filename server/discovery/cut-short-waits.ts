/**
 * Waits that can be cut short, one per key (an index entry's delayed
 * reconciling scan): a scan asked for at once (a rescan) ends the wait of
 * the one already pending instead of waiting behind it. Their timers do not
 * hold the process open.
 */
export class CutShortWaits<Key extends object> {
  private readonly pending = new WeakMap<Key, () => void>();

  /** Resolves after `ms`, or when `cutShort(key)` is called first. */
  wait(key: Key, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms).unref();
      this.pending.set(key, () => {
        clearTimeout(timer);
        resolve();
      });
    }).finally(() => this.pending.delete(key));
  }

  /** Ends `key`'s wait now, if one is pending. */
  cutShort(key: Key): void {
    this.pending.get(key)?.();
  }
}
