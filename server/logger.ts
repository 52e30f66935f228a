import { pino, type Logger } from 'pino';

export type { Logger };

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

export function createLogger(options: { level: string; destination?: NodeJS.WritableStream }): Logger {
  return pino(
    {
      level: options.level,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      base: { service: 'bullpen' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? process.stdout,
  );
}

/** Replaces the credentials of a connection URL, for messages and logs. */
export function redactUrlCredentials(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)([^@/\s]*)@/gi, (_match, scheme: string, userInfo: string) => {
    const [user] = userInfo.split(':');
    return `${scheme}${user ? '****' : ''}:****@`;
  });
}
