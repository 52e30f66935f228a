import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const taskStates = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type TaskState = (typeof taskStates)[number];

/** A long operation run in the background by one replica at a time, resumable from `cursor`. */
export const Task = defineEntity({
  name: 'Task',
  tableName: 'task',
  properties: {
    id: p.string().primary().length(36),
    organizationId: p.string().length(36),
    connectionId: p.string().length(200),
    kind: p.string().length(50),
    queueName: p.text().nullable(),
    params: p.json<Record<string, unknown>>(),
    state: p.enum(taskStates).length(20),
    // bigint columns in PostgreSQL (0009): read as numbers, not the driver's strings, or progress concatenates.
    processed: p.bigint('number'),
    total: p.bigint('number').nullable(),
    maxPerSecond: p.integer().nullable(),
    cursor: p.json<Record<string, unknown>>().nullable(),
    result: p.json<Record<string, unknown>>().nullable(),
    error: p.text().nullable(),
    leaseHolder: p.string().length(100).nullable(),
    leaseExpiresAt: p.bigint('number').nullable(),
    createdBy: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
  },
});

export type TaskRow = InferEntity<typeof Task>;
