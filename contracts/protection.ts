import { z } from 'zod';

/**
 * How a connection guards its store, weakest first: `confirm` asks every
 * destructive action for `confirmName`, `admin` lets only admins and owners run
 * them, `read-only` refuses every change whatever the role (reads stay allowed).
 * contracts/permissions.ts (`storeChangeByPermission`) says which actions write
 * and which destroy.
 */
export const connectionProtections = ['none', 'confirm', 'admin', 'read-only'] as const;

export const connectionProtectionSchema = z
  .enum(connectionProtections)
  .describe(
    'What the connection refuses: `none` (default); `confirm`: destructive actions need `confirmName`; `admin`: destructive actions need the admin role as well; `read-only`: every change to the store, whatever the role.',
  );
export type ConnectionProtection = z.infer<typeof connectionProtectionSchema>;

/**
 * The `confirmName` of a destructive route that needs one only on a `confirm`
 * connection: the queue name on routes under a queue, the connection name on
 * connection-wide ones.
 */
export const protectionConfirmName = (names: 'queue' | 'connection') =>
  z
    .string()
    .max(1000)
    .optional()
    .describe(
      names === 'queue'
        ? "Required when the connection's protection is `confirm`: the path `queueName`, exactly."
        : "Required when the connection's protection is `confirm`: the connection's name, exactly.",
    );
