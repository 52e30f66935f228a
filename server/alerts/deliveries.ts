import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AlertDelivery, AlertDestination, type AlertDeliveryRow } from '../persistence/entities/alerts.js';
import type { EntityManager } from '../persistence/orm.js';
import type { UrlCipher } from '../secrets/url-cipher.js';
import type { TargetPolicy } from '../stores/target-policy.js';
import { sendDelivery, type DeliveryPayload, type SendResult } from './send-delivery.js';

const retryForMs = 60 * 60_000;
const firstRetryMs = 10_000;
const longestWaitMs = 10 * 60_000;
const duePerRound = 50;

/** Queues one delivery per destination; a second enqueue of the same event id is a no-op (unique index). */
export async function enqueueDeliveries(em: EntityManager, destinationIds: string[], payload: DeliveryPayload, now: Date): Promise<void> {
  for (const destinationId of destinationIds) {
    try {
      await em.insert(AlertDelivery, {
        id: randomUUID(), destinationId, eventKey: payload.event, payload: JSON.stringify(payload), status: 'pending',
        attempts: 0, lastStatusCode: null, lastError: null, nextAttemptAt: now, createdAt: now, deliveredAt: null,
      });
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
    }
  }
}

/** Opens a destination's sealed URL and secret (bound to its id). */
export function openDestination(cipher: UrlCipher, row: { id: string; type: string; urlSealed: string; secretSealed: string }) {
  return { type: row.type, url: cipher.decrypt(row.urlSealed, row.id), secret: cipher.decrypt(row.secretSealed, `${row.id}:secret`) };
}

/** Retry waits: 10 s, 20 s, 40 s … at most 10 minutes, for an hour. */
export const retryDelayMs = (attempts: number) => Math.min(longestWaitMs, firstRetryMs * 2 ** Math.max(0, attempts - 1));

/** Sends what is due; each attempt's outcome is written before the next one is sent. */
export async function deliverDue(em: EntityManager, cipher: UrlCipher, policy: TargetPolicy, now = new Date()): Promise<number> {
  const due = await em.find(AlertDelivery, { status: 'pending', nextAttemptAt: { $lte: now } }, { orderBy: { nextAttemptAt: 'asc' }, limit: duePerRound });
  for (const delivery of due) {
    const destination = await em.findOne(AlertDestination, { id: delivery.destinationId });
    const result: SendResult = destination
      ? await sendDelivery(openDestination(cipher, destination), JSON.parse(delivery.payload) as DeliveryPayload, policy)
      : { delivered: false, statusCode: null, error: 'the destination was removed' };
    record(delivery, result, new Date(), !destination);
  }
  await em.flush();
  return due.length;
}

function record(delivery: AlertDeliveryRow, result: SendResult, at: Date, final: boolean): void {
  delivery.attempts += 1;
  delivery.lastStatusCode = result.statusCode;
  delivery.lastError = result.error;
  if (result.delivered) {
    delivery.status = 'delivered';
    delivery.deliveredAt = at;
  } else if (final || at.getTime() + retryDelayMs(delivery.attempts) > delivery.createdAt.getTime() + retryForMs) {
    delivery.status = 'failed';
  } else {
    delivery.nextAttemptAt = new Date(at.getTime() + retryDelayMs(delivery.attempts));
  }
}
