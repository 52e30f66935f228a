import { createHmac } from 'node:crypto';
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

const timeoutMs = 5000;

/** `sha256=<hex>`: HMAC-SHA256 of the exact body bytes, keyed with the destination's secret. */
export function signature(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** What a Slack incoming webhook shows for an alert: one line of text. */
function slackText(payload: DeliveryPayload): string {
  const where = payload.queueName === null ? `connection ${payload.connection.name}` : `queue ${payload.queueName} on ${payload.connection.name}`;
  const mark = payload.state === 'firing' ? ':rotating_light:' : payload.state === 'resolved' ? ':white_check_mark:' : ':bell:';
  return `${mark} ${payload.rule.name} (${payload.rule.type}) ${payload.state} for ${where}: value ${payload.value}, threshold ${payload.threshold}`;
}

/**
 * POSTs one delivery: a webhook gets the JSON payload signed in X-Bullpen-Signature, a Slack
 * webhook gets formatted text. Redirects are not followed (a destination must answer itself);
 * 2xx is delivered, anything else (or no answer in 5 s) is a failed attempt.
 */
export async function sendDelivery(destination: { type: string; url: string; secret: string }, payload: DeliveryPayload, policy: TargetPolicy): Promise<SendResult> {
  try {
    await assertWebhookAllowed(policy, destination.url);
  } catch (error) {
    return { delivered: false, statusCode: null, error: (error as Error).message.slice(0, 300) };
  }
  const body = JSON.stringify(destination.type === 'slack' ? { text: slackText(payload) } : payload);
  try {
    const response = await fetch(destination.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'bullpen-alerts',
        'x-bullpen-event-id': payload.event,
        'x-bullpen-signature': signature(body, destination.secret),
      },
      body,
    });
    await response.arrayBuffer().catch(() => undefined);
    const delivered = response.status >= 200 && response.status < 300;
    return { delivered, statusCode: response.status, error: delivered ? null : `answered ${response.status}` };
  } catch (error) {
    const reason = error instanceof Error ? (error.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return { delivered: false, statusCode: null, error: reason.slice(0, 300) };
  }
}

/** The webhook's host, resolved and checked against SERVICE_WEBHOOK_ALLOW (link-local refused unless listed). */
export async function assertWebhookAllowed(policy: TargetPolicy, url: string): Promise<void> {
  const parsed = new URL(url);
  await policy.resolve(parsed.hostname, Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)));
}
