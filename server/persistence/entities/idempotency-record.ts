import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The first answer to a request sent with an `Idempotency-Key` (job add, task
 * creation), kept 24 hours so a retry gets it again instead of acting twice.
 * `id` is a hash of the scope (organization, route, actor) and the key: the
 * primary key makes concurrent duplicates race for one row. `status` is null
 * while the first request still runs.
 */
export const IdempotencyRecord = defineEntity({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_record',
  properties: {
    id: p.string().primary().length(64),
    organizationId: p.string().length(36),
    route: p.string().length(100),
    requestHash: p.string().length(64),
    status: p.integer().nullable(),
    body: p.json<unknown>().nullable(),
    // Epoch milliseconds, as the task leases keep theirs: compared with Date.now() in one query.
    createdAt: p.bigint('number'),
    expiresAt: p.bigint('number'),
  },
});

export type IdempotencyRow = InferEntity<typeof IdempotencyRecord>;
