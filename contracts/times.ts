import { z } from 'zod';

/**
 * An instant as epoch milliseconds (UTC), the way BullMQ keeps job times.
 * Documented as such: an integer with nothing else would read as seconds
 * or a count.
 */
export const epochMs = (description: string) =>
  z.number().int().describe(`${description} Epoch milliseconds (UTC).`).meta({ format: 'int64' });

/** An instant as ISO 8601 text (`2025-05-01T12:00:00.000Z`), documented as `format: date-time`. */
export const isoTime = () => z.string().meta({ format: 'date-time' });
