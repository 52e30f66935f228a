import type { Logger } from '../logger.js';
import type { Persistence } from '../persistence/persistence.js';
import type { UrlCipher } from '../secrets/url-cipher.js';
import type { TargetPolicy } from '../stores/target-policy.js';
import { deliverDue } from './deliveries.js';

export interface DeliveryDispatcherDeps {
  persistence: Persistence;
  secretCipher: UrlCipher;
  webhookPolicy: TargetPolicy;
  logger: Logger;
  /** Whether this replica may deliver now (it holds the history lease). */
  holds(): Promise<boolean>;
}

/**
 * Sends alert deliveries on a clock of its own, every `pollMs` and when rules queue new ones
 * (`nudge`), so no webhook, however slow, delays a history sample or a rule's evaluation. One
 * round at a time; a nudge during a round runs one more round after it.
 */
export class DeliveryDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private again = false;
  private stopping = new AbortController();

  constructor(
    private readonly deps: DeliveryDispatcherDeps,
    private readonly pollMs = 1000,
  ) {}

  start(): void {
    this.stopping = new AbortController();
    this.timer = setInterval(() => this.nudge(), this.pollMs);
    this.timer.unref();
  }

  /** Starts a round unless one runs (then one more follows it); resolves when the rounds end. */
  nudge(): Promise<void> {
    if (this.round) {
      this.again = true;
      return this.round;
    }
    this.round = this.rounds().finally(() => (this.round = undefined));
    return this.round;
  }

  /** Stops the clock and cuts in-flight attempts short (they stay due, unrecorded, for whoever delivers next). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.stopping.abort();
    await this.round;
  }

  private async rounds(): Promise<void> {
    do {
      this.again = false;
      if (this.stopping.signal.aborted || !(await this.deps.holds())) return;
      const { persistence, secretCipher, webhookPolicy, logger } = this.deps;
      await deliverDue(persistence.fork(), secretCipher, webhookPolicy, { stop: this.stopping.signal }).catch((error) =>
        logger.warn({ err: error }, 'alert deliveries not sent; retried next round'),
      );
    } while (this.again);
  }
}
