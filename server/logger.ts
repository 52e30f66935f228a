import { pino, stdSerializers, type Logger } from 'pino';
import { redactUrlCredentials } from './secrets/redact-credentials.js';

export type { Logger };
export { redactUrlCredentials };

/** Paths pino blanks out wherever they appear: credentials never reach a log line. */
const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.secret',
  '*.databaseUrl',
  '*.redisUrl',
];

const maxRedactedDepth = 4;

/** Masks URL credentials in every string of a log record (messages, error texts, nested fields). */
function redactStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactUrlCredentials(value);
  if (value === null || typeof value !== 'object' || depth >= maxRedactedDepth) return value;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, depth + 1));
  // Errors, requests and the like keep their class: their serializers run later and redact what they emit.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item, depth + 1)]));
}

export function createLogger(options: { level: string; destination?: NodeJS.WritableStream }): Logger {
  return pino(
    {
      level: options.level,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      base: { service: 'bullpen' },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: (error: Error) => redactStrings(stdSerializers.err(error)) },
      formatters: { log: (record) => redactStrings(record) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          const redacted = args.map((arg) => (typeof arg === 'string' ? redactUrlCredentials(arg) : arg));
          return method.apply(this, redacted as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? process.stdout,
  );
}

/**
 * A logger made on first use: a request's child logger costs its bindings'
 * serialization and redaction, and most requests never log. The context
 * holds this stand-in (copying it copies no logger); the first method call
 * makes the real one.
 */
export function lazyLogger(create: () => Logger): Logger {
  let real: Logger | undefined;
  return new Proxy({} as Logger, {
    get(_target, key) {
      real ??= create();
      const value = Reflect.get(real, key, real) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(real) : value;
    },
  });
}
