import type { Logger } from '../logger.js';
import { acquireLease, releaseLease } from '../persistence/lease.js';
import type { Persistence } from '../persistence/persistence.js';

/**
 * Keeps trying to take, and then renews, one named lease at a third of its lifetime: a replica
 * that dies stops renewing, and another one holds the lease at most `ttl + ttl / 3` later.
 */
export class LeaseKeeper {
  private held = false;
  private heldUntil = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly persistence: Persistence,
    readonly name: string,
    private readonly holder: string,
    private readonly ttlMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    void this.renew();
    this.timer = setInterval(() => void this.renew(), Math.max(1000, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  /** Whether this replica holds the lease now (renewing first when its hold is about to end). */
  async holds(): Promise<boolean> {
    if (!this.held || this.heldUntil - Date.now() < this.ttlMs / 3) await this.renew();
    return this.held && this.heldUntil > Date.now();
  }

  async renew(): Promise<void> {
    const now = Date.now();
    try {
      const held = await acquireLease(this.persistence.fork(), this.name, this.holder, this.ttlMs, now);
      if (held !== this.held)
        this.logger.info({ lease: this.name, held }, held ? 'lease taken' : 'lease held elsewhere');
      this.held = held;
      this.heldUntil = held ? now + this.ttlMs : 0;
    } catch (error) {
      this.logger.debug({ err: error, lease: this.name }, 'lease not renewed (database unavailable)');
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    if (!this.held) return;
    this.held = false;
    await releaseLease(this.persistence.fork(), this.name, this.holder).catch(() => undefined);
  }
}
