import { setTimeout as sleep } from 'node:timers/promises';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { IdempotencyRecord } from '../../persistence/entities/idempotency-record.js';
import type { EntityManager } from '../../persistence/orm.js';

/** How long a first answer is replayed. */
export const idempotencyTtlMs = 24 * 60 * 60 * 1000;
/** A first request still running after this is taken for dead (its replica stopped): a retry runs again. */
const abandonedAfterMs = 60_000;
/** How long a duplicate waits for the first request's answer before 409. */
const waitForFirstMs = 10_000;
const pollMs = 25;

export interface IdempotencyScope {
  /** Hash of organization, route, actor and key: the row's id. */
  id: string;
  organizationId: string;
  route: string;
  requestHash: string;
}

/** What a request with a key does: run (it is the first), replay the first answer, or refuse. */
export type Claim =
  | { kind: 'first' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'mismatch' }
  | { kind: 'busy' };

async function tryInsert(em: EntityManager, scope: IdempotencyScope, now: number): Promise<boolean> {
  try {
    await em.insert(IdempotencyRecord, {
      ...scope,
      status: null,
      body: null,
      createdAt: now,
      expiresAt: now + idempotencyTtlMs,
    });
    return true;
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) return false;
    throw error;
  }
}

/**
 * Claims a key for one request. The row's primary key settles a race between
 * duplicates sent at once: one inserts and runs, the others wait for its
 * answer (or its release, when it failed) and replay it. An expired row, or
 * one abandoned while running, is deleted and the claim tried again.
 */
export async function claimKey(fork: () => EntityManager, scope: IdempotencyScope): Promise<Claim> {
  const deadline = Date.now() + waitForFirstMs;
  while (Date.now() < deadline) {
    const now = Date.now();
    const em = fork();
    if (await tryInsert(em, scope, now)) {
      await em.nativeDelete(IdempotencyRecord, { expiresAt: { $lte: now } });
      return { kind: 'first' };
    }
    const row = await em.findOne(IdempotencyRecord, { id: scope.id });
    if (!row) continue;
    if (row.expiresAt <= now || (row.status == null && row.createdAt < now - abandonedAfterMs)) {
      await em.nativeDelete(IdempotencyRecord, { id: row.id, createdAt: row.createdAt });
      continue;
    }
    if (row.requestHash !== scope.requestHash) return { kind: 'mismatch' };
    if (row.status != null) return { kind: 'replay', status: row.status, body: row.body };
    await sleep(pollMs);
  }
  return { kind: 'busy' };
}

/** Keeps the first request's answer for the key's retries. */
export async function keepAnswer(em: EntityManager, id: string, status: number, body: unknown): Promise<void> {
  await em.nativeUpdate(IdempotencyRecord, { id }, { status, body: body ?? null });
}

/** A first request that failed leaves nothing: a retry with its key runs again. */
export async function releaseKey(em: EntityManager, id: string): Promise<void> {
  await em.nativeDelete(IdempotencyRecord, { id, status: null });
}
