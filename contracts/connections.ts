import { z } from 'zod';
import { deletedSchema, deprecatedField } from './deleted.js';
import { isoTime } from './times.js';
import { storeUrlProblem } from './store-url.js';
import { databaseText } from './database-text.js';
import { strictBoolean } from './strict-boolean.js';
import { connectionProtectionSchema } from './protection.js';

export const connectionEnvironmentSchema = z
  .enum(['development', 'staging', 'production'])
  .describe('What the store serves; clients may guard destructive actions on `production`.');

export const prefixSchema = z
  .string()
  .regex(/^[^\s,]{1,100}$/, 'must be 1-100 characters without spaces or commas')
  .describe('BullMQ key prefix. On a Redis Cluster use a hash-tagged prefix such as `{bull}`.');

export const postgresSchemaSchema = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/,
    'must be a simple PostgreSQL identifier (letters, digits, underscores; at most 63)',
  )
  .describe("PostgreSQL connections: the schema BullMQ's PostgreSQL backend keeps its tables in (default `bullmq`).");

export const storeUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(4000)
  .superRefine((url, context) => {
    const problem = storeUrlProblem(url);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .describe(
    "`redis://[:password@]host:port[/db]`, `rediss://…` for TLS, or a comma-separated list of seed node URLs for a cluster; or `postgres://user:password@host:5432/database` (`postgresql://` too; `?sslmode=require` for TLS) for queues held by BullMQ's PostgreSQL backend.",
  );

const tlsInput = z
  .strictObject({
    enabled: strictBoolean().optional().describe('Defaults to whether the URL is `rediss://`.'),
    allowSelfSigned: strictBoolean()
      .optional()
      .describe('Accept certificates no trusted authority signed (default false).'),
  })
  .describe('TLS options.');

const clusterInput = strictBoolean().describe(
  'Whether the store is a Redis Cluster (default: true for a seed list, else false).',
);

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Fields a client may set, on create (name and url required) and update (all optional). */
const connectionFields = {
  name: databaseText()
    .trim()
    .min(1)
    .max(100)
    // `/c/{connectionId}` takes a name too, and an id wins: a name shaped like one could never be reached.
    .refine((name) => !uuidShape.test(name), 'must not look like a connection id (a UUID)')
    .describe(
      'Unique within the organization; `/c/{connectionId}` routes accept it in place of the id. Not shaped like a UUID.',
    ),
  url: storeUrlSchema,
  environment: connectionEnvironmentSchema.optional().describe('Default `development`.'),
  prefix: prefixSchema
    .optional()
    .describe('The main BullMQ key prefix (default `bull`); becomes the first of `prefixes`.'),
  prefixes: z.array(prefixSchema).min(1).max(20).optional().describe('Every BullMQ key prefix on this store.'),
  schema: postgresSchemaSchema
    .optional()
    .describe('PostgreSQL connections only, in place of `prefix`: the BullMQ schema (default `bullmq`).'),
  isDefault: strictBoolean()
    .optional()
    .describe('Make this the organization default (the first connection always is).'),
  tls: tlsInput.optional(),
  cluster: clusterInput.optional(),
  protection: connectionProtectionSchema
    .optional()
    .describe(
      'Default `none`. Setting or changing it needs the admin role (it is audited); see docs/api.md, "Protected connections".',
    ),
};

export const createConnectionInput = z.strictObject({
  ...connectionFields,
  migrate: strictBoolean()
    .optional()
    .describe(
      "PostgreSQL connections only: run BullMQ's own migrations on the schema when saving (default false; Bullpen never changes the schema otherwise).",
    ),
});

export const connectionIdParams = z.strictObject({
  id: z.string().min(1).max(200).describe('Connection id (saved: a UUID; environment: the lowercased NAME).'),
});

export const updateConnectionInput = connectionIdParams.extend({
  name: connectionFields.name.optional(),
  url: storeUrlSchema.optional(),
  environment: connectionEnvironmentSchema.optional(),
  prefix: connectionFields.prefix,
  prefixes: connectionFields.prefixes,
  schema: connectionFields.schema,
  isDefault: connectionFields.isDefault,
  tls: connectionFields.tls,
  cluster: connectionFields.cluster,
  protection: connectionFields.protection,
});

export const connectionRecordSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    url: z
      .string()
      .describe('Scheme, host, port and database number only: username and password as `****`, a query as `/…`.'),
    kind: z
      .enum(['redis', 'postgres'])
      .describe("What holds the queues: Redis, or BullMQ's PostgreSQL backend (told by the URL scheme)."),
    schema: z.string().nullable().describe('PostgreSQL connections: the BullMQ schema (also `prefix`); null on Redis.'),
    environment: connectionEnvironmentSchema,
    prefix: z.string().describe('The main BullMQ key prefix: `prefixes[0]`.'),
    prefixes: z.array(z.string()),
    isDefault: z.boolean(),
    tls: z.object({ enabled: z.boolean(), allowSelfSigned: z.boolean() }),
    cluster: z.boolean(),
    protection: connectionProtectionSchema,
    source: z
      .enum(['saved', 'env'])
      .describe('`env` for connections from SERVICE_REDIS_URL_* and SERVICE_POSTGRES_URL_* variables.'),
    createdAt: isoTime().describe('ISO 8601.'),
    updatedAt: isoTime().describe('ISO 8601.'),
  })
  .meta({ id: 'Connection' });

export const connectionListSchema = z
  .object({
    connections: z.array(connectionRecordSchema).describe('Default connection first, then by name.'),
  })
  .meta({ id: 'ConnectionList' });

export const deletedConnectionSchema = deletedSchema
  .extend({
    deleted: deprecatedField(z.literal(true), 'success'),
    defaultId: z
      .string()
      .nullable()
      .describe('The default connection after the delete (promoted if the deleted one was it).'),
  })
  .meta({ id: 'DeletedConnection' });

export const testConnectionInput = z
  .strictObject({
    id: z.string().min(1).max(200).optional().describe('Test a saved or environment connection.'),
    url: storeUrlSchema.optional().describe('Test a URL before saving it.'),
    schema: postgresSchemaSchema
      .optional()
      .describe('With a postgres:// `url`: the BullMQ schema to look for (default `bullmq`).'),
    tls: tlsInput.optional(),
    cluster: clusterInput.optional(),
  })
  .refine((input) => (input.id === undefined) !== (input.url === undefined), {
    message: 'give either id or url',
    path: ['url'],
  });

export const testConnectionResultSchema = z
  .object({
    ok: z.boolean(),
    latencyMs: z.number().nullable().describe('Round trip of a PING once connected; null on failure.'),
    redisVersion: z.string().nullable(),
    postgresVersion: z.string().optional().describe('PostgreSQL connections: the server version.'),
    schemaVersion: z
      .number()
      .int()
      .optional()
      .describe('PostgreSQL connections: the BullMQ schema version found (its migration ledger).'),
    mode: z
      .enum(['standalone', 'cluster'])
      .describe('What the server reports (`redis_mode`), or what was asked when unreachable.'),
    error: z.string().optional().describe('Why the test failed; never carries a password or server banner.'),
  })
  .meta({ id: 'ConnectionTestResult' });

export type ConnectionRecord = z.infer<typeof connectionRecordSchema>;
export type CreateConnectionInput = z.infer<typeof createConnectionInput>;
export type UpdateConnectionInput = z.infer<typeof updateConnectionInput>;
export type TestConnectionInput = z.infer<typeof testConnectionInput>;
export type TestConnectionResult = z.infer<typeof testConnectionResultSchema>;
