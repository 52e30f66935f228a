import { z } from 'zod';
import { alertDestinationTypes, alertRuleTypes } from './alerts.js';
import { connectionEnvironmentSchema, prefixSchema } from './connections.js';
import { connectionProtectionSchema } from './protection.js';
import { scheduleSchema, schedulerJobOptionsSchema } from './schedulers.js';
import { strictBoolean } from './strict-boolean.js';
import { strictNumber } from './strict-number.js';
import { isoTime } from './times.js';

/**
 * An organization's definitions as one versioned JSON document (`GET /api/definitions`, `POST` to
 * import): connections and their protection, queue settings and job schedulers, alert rules and
 * destinations. Secrets are never in it: they are named (`{ secret, env? }`) and given apart.
 */
export const definitionsVersion = 1;
export const maxDefinedConnections = 200;
export const maxDefinedPerConnection = 10_000;

const name = z.string().trim().min(1).max(100);

export const secretReference = z
  .strictObject({
    secret: z
      .string()
      .min(1)
      .max(300)
      .describe("The secret's name: its value is given in the import's `secrets` under this name."),
    env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .max(200)
      .optional()
      .describe(
        'An environment variable the CLI reads the value from when it imports the file (the service never reads it).',
      ),
  })
  .describe('A secret the file names without holding it.');
export type SecretReference = z.infer<typeof secretReference>;

export const queueSettingsDefinition = z.strictObject({
  queueName: z.string().min(1).max(1000),
  prefix: prefixSchema.optional().describe("Default: the connection's first prefix holding the queue, else its first."),
  globalConcurrency: strictNumber(z.number().int().min(1).max(100_000))
    .nullable()
    .optional()
    .describe('Jobs at once across every worker; null: no limit. Absent: left as it is.'),
  globalRateLimit: z
    .strictObject({
      max: strictNumber(z.number().int().min(1).max(1_000_000)),
      durationMs: strictNumber(z.number().int().min(1).max(86_400_000)),
    })
    .nullable()
    .optional()
    .describe('At most `max` jobs per `durationMs`; null: none. Absent: left as it is.'),
});

export const schedulerDefinition = z.strictObject({
  queueName: z.string().min(1).max(1000),
  prefix: prefixSchema.optional(),
  schedulerId: z.string().min(1).max(1000),
  name: z.string().min(1).max(1000).describe('Name of the jobs it produces.'),
  data: z.unknown().optional(),
  schedule: scheduleSchema,
  options: schedulerJobOptionsSchema.optional(),
});

export const alertRuleDefinition = z.strictObject({
  name,
  type: z.enum(alertRuleTypes),
  threshold: strictNumber(z.number().min(0).max(1e12)),
  windowMinutes: strictNumber(z.number().int().min(1).max(1440)),
  minVolume: strictNumber(z.number().int().min(0).max(1e9)).nullable().optional(),
  queues: z
    .strictObject({
      include: z.array(z.string().min(1).max(200)).max(50),
      exclude: z.array(z.string().min(1).max(200)).max(50),
    })
    .optional(),
  destinations: z
    .array(name)
    .max(10)
    .default([])
    .describe('Alert destinations by name (of `alertDestinations`, or already saved).'),
  cooldownMinutes: strictNumber(z.number().int().min(0).max(10_080)).default(15),
  enabled: strictBoolean().default(true),
});

export const connectionDefinition = z.strictObject({
  name,
  source: z
    .enum(['saved', 'env'])
    .optional()
    .describe(
      "As exported. An environment connection is matched by name and its own settings are the environment's: only what is under it is imported.",
    ),
  url: z
    .string()
    .trim()
    .min(1)
    .max(4000)
    .optional()
    .describe('The store URL without credentials (`redis://10.0.0.5:6379/0`); needed to create a connection.'),
  credentials: secretReference
    .nullable()
    .optional()
    .describe('null: the URL needs none. A reference: the whole URL, credentials included, is that secret.'),
  environment: connectionEnvironmentSchema.optional(),
  prefixes: z.array(prefixSchema).min(1).max(20).optional(),
  isDefault: strictBoolean().optional(),
  tls: z.strictObject({ enabled: strictBoolean(), allowSelfSigned: strictBoolean() }).optional(),
  cluster: strictBoolean().optional(),
  protection: connectionProtectionSchema.optional(),
  queues: z
    .array(queueSettingsDefinition)
    .max(maxDefinedPerConnection)
    .default([])
    .describe('Queue settings: global concurrency and rate limit.'),
  schedulers: z.array(schedulerDefinition).max(maxDefinedPerConnection).default([]),
  alertRules: z.array(alertRuleDefinition).max(100).default([]),
});

export const alertDestinationDefinition = z.strictObject({
  name,
  type: z.enum(alertDestinationTypes),
  url: z
    .string()
    .max(2000)
    .optional()
    .describe('Scheme, host and port only, as destinations are shown: the whole URL is the `target` secret.'),
  target: secretReference.describe('The whole URL deliveries are POSTed to.'),
  signingSecret: secretReference.describe(
    'The key of `Bullpen-Signature`: receivers already hold it, so it is given, never made up.',
  ),
});

export const definitionsDocument = z
  .strictObject({
    bullpenDefinitions: z
      .literal(definitionsVersion)
      .describe(`The document's version: this service reads version ${definitionsVersion}.`),
    exportedAt: isoTime().optional(),
    connections: z.array(connectionDefinition).max(maxDefinedConnections).default([]),
    alertDestinations: z.array(alertDestinationDefinition).max(100).default([]),
    warnings: z
      .array(z.string().max(2000))
      .max(maxDefinedConnections)
      .optional()
      .describe(
        "What the export could not read (a store that did not answer: that connection's queue settings and schedulers are missing). An import ignores it, and never removes what a document lacks.",
      ),
  })
  .describe(
    `An organization's definitions, version ${definitionsVersion}: connections (with their queue settings, job schedulers and alert rules) and alert destinations. Secrets are named, never held.`,
  )
  .meta({ id: 'Definitions' });

export type DefinitionsDocument = z.infer<typeof definitionsDocument>;
export type ConnectionDefinition = z.infer<typeof connectionDefinition>;
export type QueueSettingsDefinition = z.infer<typeof queueSettingsDefinition>;
export type SchedulerDefinition = z.infer<typeof schedulerDefinition>;
export type AlertRuleDefinition = z.infer<typeof alertRuleDefinition>;
export type AlertDestinationDefinition = z.infer<typeof alertDestinationDefinition>;
