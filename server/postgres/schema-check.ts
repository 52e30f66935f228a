import { AppError } from '../../contracts/app-error.js';
import { loadBullmq } from '../bullmq/bullmq-module.js';
import { schemaState, type Db } from './bullmq-schema.js';

export interface SchemaReport {
  /** The PostgreSQL server's version (`server_version`). */
  postgresVersion: string;
  /** The BullMQ schema version found (its migration ledger). */
  schemaVersion: number;
}

/**
 * The server's version and the BullMQ schema's, or 400 when this service
 * cannot use the schema: BULLMQ_SCHEMA_MISSING when it was never migrated,
 * BULLMQ_SCHEMA_UNSUPPORTED when a newer BullMQ major migrated it (BullMQ's
 * own rule: the ledger's minimum client version). Reads only, never DDL.
 */
export async function checkSchema(db: Db, schema: string, connectionId?: string): Promise<SchemaReport> {
  const state = await schemaState(db);
  const where = connectionId === undefined ? {} : { connectionId };
  if (state.version === null || state.version === 0) {
    throw new AppError(
      'BULLMQ_SCHEMA_MISSING',
      `PostgreSQL schema "${schema}" holds no BullMQ tables: run BullMQ's migrations on it (or save the connection with migrate: true)`,
      {
        ...where,
        schema,
      },
    );
  }
  const { BULLMQ_MAJOR_VERSION } = await loadBullmq();
  if ((state.minClientVersion ?? 0) > BULLMQ_MAJOR_VERSION) {
    throw new AppError(
      'BULLMQ_SCHEMA_UNSUPPORTED',
      `PostgreSQL schema "${schema}" (version ${state.version}) needs BullMQ ${state.minClientVersion} or newer; this service runs BullMQ ${BULLMQ_MAJOR_VERSION}`,
      { ...where, schema, minimumClientVersion: state.minClientVersion },
    );
  }
  return { postgresVersion: state.serverVersion, schemaVersion: state.version };
}
