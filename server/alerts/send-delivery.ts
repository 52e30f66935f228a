import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../contracts/app-error.js';
import type { TargetPolicy } from '../stores/target-policy.js';

export interface DeliveryPayload {
  event: string;
  rule: { id: string; name: string; type: string };
  connection: { id: string; name: string };
  queueName: string | null;
  value: number;
  threshold: number;
  state: 'firing' | 'resolved' | 'test';
  at: string;
}

export interface SendResult {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
}

export const deliveryTimeoutMs = 5000;

/**
 * One message per outcome class, whatever lies behind the address: a closed
 * port, a silent one, a Redis or any other service that is not HTTP all read
 * "unreachable", so a destination's test is no port scanner. A destination
 * that answered gets its status (`answered 404`).
 */
export const deliveryErrors = {
  refused: 'refused by policy: the address is outside SERVICE_WEBHOOK_ALLOW, link-local, or its name does not resolve',
  unreachable: `no HTTP answer within ${deliveryTimeoutMs / 1000} s (unreachable, or not an HTTP server)`,
} as const;

/** `sha256=<hex>`: HMAC-SHA256 of the exact body bytes, keyed with the destination's secret. */
export function signature(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * The signature headers of one attempt. `Bullpen-Signature` signs `<Bullpen-Timestamp>.<body>` (Unix
 * seconds), so a receiver can refuse a replayed delivery by its age; each retry is signed anew. The
 * body-only `X-Bullpen-Signature` stays for receivers written before the timestamp existed.
 */
export function signatureHeaders(body: string, secret: string, now = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  return {
    'bullpen-timestamp': timestamp,
    'bullpen-signature': signature(`${timestamp}.${body}`, secret),
    'x-bullpen-signature': signature(body, secret),
  };
}

/** What a Slack incoming webhook shows for an alert: one line of text. */
function slackText(payload: DeliveryPayload): string {
  const where =
    payload.queueName === null
      ? `connection ${payload.connection.name}`
      : `queue ${payload.queueName} on ${payload.connection.name}`;
  const mark =
    payload.state === 'firing' ? ':rotating_light:' : payload.state === 'resolved' ? ':white_check_mark:' : ':bell:';
  return `${mark} ${payload.rule.name} (${payload.rule.type}) ${payload.state} for ${where}: value ${payload.value}, threshold ${payload.threshold}`;
}

const failed = (error: string): SendResult => ({ delivered: false, statusCode: null, error });

/** Whether a failed attempt got no HTTP answer at all. */
export const wasUnreachable = (result: SendResult) => result.error === deliveryErrors.unreachable;

/**
 * POSTs one delivery: a webhook gets the JSON payload signed in X-Bullpen-Signature, a Slack
 * webhook gets formatted text. Redirects are not followed (a destination must answer itself);
 * 2xx is delivered, anything else (or no answer in 5 s) is a failed attempt, reported in the
 * words of `deliveryErrors` (never the network error's own text, which tells port kinds apart
 * and can quote the URL). `stop` (shutdown) cuts the attempt short.
 */
export async function sendDelivery(
  destination: { type: string; url: string; secret: string },
  payload: DeliveryPayload,
  policy: TargetPolicy,
  stop?: AbortSignal,
): Promise<SendResult> {
  try {
    await assertWebhookAllowed(policy, destination.url);
  } catch (error) {
    return failed(error instanceof AppError ? deliveryErrors.refused : deliveryErrors.unreachable);
  }
  const body = JSON.stringify(destination.type === 'slack' ? { text: slackText(payload) } : payload);
  try {
    const response = await fetch(destination.url, {
      method: 'POST',
      redirect: 'manual',
      signal: stop
        ? AbortSignal.any([AbortSignal.timeout(deliveryTimeoutMs), stop])
        : AbortSignal.timeout(deliveryTimeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'bullpen-alerts',
        'x-bullpen-event-id': payload.event,
        ...signatureHeaders(body, destination.secret),
      },
      body,
    });
    await response.arrayBuffer().catch(() => undefined);
    const delivered = response.status >= 200 && response.status < 300;
    return { delivered, statusCode: response.status, error: delivered ? null : `answered ${response.status}` };
  } catch {
    return failed(deliveryErrors.unreachable);
  }
}

/**
 * A delivery sent on request (a destination's test): one that got no HTTP
 * answer is answered at the deadline, however fast it failed, since a closed
 * port fails at once and a silent one at the deadline.
 */
export async function sendTestDelivery(
  destination: { type: string; url: string; secret: string },
  payload: DeliveryPayload,
  policy: TargetPolicy,
): Promise<SendResult> {
  const started = performance.now();
  const result = await sendDelivery(destination, payload, policy);
  if (wasUnreachable(result)) await sleep(Math.max(0, deliveryTimeoutMs - (performance.now() - started)));
  return result;
}

/** The webhook's host, resolved and checked against SERVICE_WEBHOOK_ALLOW (link-local refused unless listed). */
export async function assertWebhookAllowed(policy: TargetPolicy, url: string): Promise<void> {
  const parsed = new URL(url);
  await policy.resolve(parsed.hostname, Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)));
}
