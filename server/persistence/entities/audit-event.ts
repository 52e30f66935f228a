import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** One mutating call: who did what, where, with which (redacted) parameters, and how it ended. */
export const AuditEvent = defineEntity({
  name: 'AuditEvent',
  tableName: 'audit_event',
  indexes: [{ properties: ['organizationId', 'at'], name: 'audit_event_organization_at_index' }],
  properties: {
    id: p.string().primary().length(36),
    organizationId: p.string().length(36),
    at: p.datetime(),
    actorKind: p.string().length(20),
    userId: p.string().length(36).nullable(),
    tokenId: p.string().length(36).nullable(),
    action: p.string().length(100),
    procedure: p.string().length(200),
    connectionId: p.string().length(200).nullable(),
    queueName: p.string().length(1000).nullable(),
    parameters: p.text(),
    outcome: p.string().length(20),
    errorCode: p.string().length(50).nullable(),
    counts: p.text().nullable(),
    /** Why, as the caller said (`Bullpen-Reason`, or the MCP `reason` argument); cut to 1,000 characters. */
    reason: p.string().length(1000).nullable(),
  },
});

export type AuditEventRecord = InferEntity<typeof AuditEvent>;
