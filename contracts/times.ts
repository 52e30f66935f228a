import { z } from 'zod';

/**
 * An instant as epoch milliseconds (UTC), the way BullMQ keeps job times.
 * Said in the description: a bare number would read as seconds or a count.
 */
export const epochMs = (description = 'An instant.') => z.number().describe(`${description} Epoch milliseconds (UTC).`);

/** An instant as ISO 8601 text (`2025-05-01T12:00:00.000Z`), documented as `format: date-time`. */
export const isoTime = () => z.string().meta({ format: 'date-time' });
