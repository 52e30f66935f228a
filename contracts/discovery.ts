import { z } from 'zod';
import { isoTime } from './times.js';

export const discoveryStatusSchema = z
  .object({
    lastScanAt: isoTime()
      .nullable()
      .describe('When the last finished scan of every prefix began (ISO 8601); null before the first one.'),
    durationMs: z.number().int().nullable().describe('How long that scan took.'),
    queues: z.number().int().describe('Queues in the index now.'),
    scanning: z.boolean().describe('Whether a scan is running now.'),
    complete: z
      .boolean()
      .describe('Whether the last scan saw the whole keyspace under every prefix (so the index lists every queue).'),
    incompleteReason: z
      .string()
      .nullable()
      .describe(
        'Why the index may miss queues: a scan cut short by the SCAN cap, a failed scan, or no scan finished yet. Queues not seen are kept, never dropped, until a complete scan.',
      ),
  })
  .describe('The queue index of a connection: queue names kept in the database and reconciled by background scans.');
export type DiscoveryStatus = z.infer<typeof discoveryStatusSchema>;
