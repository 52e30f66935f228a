import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { bootApp, request, type TestApp } from '../../helpers/app.js';
import { repoRoot } from '../../helpers/process.js';

/**
 * The served OpenAPI document of test/system/openapi.test.ts, the linters it
 * runs on it and where they write. Exported bindings are live: set once
 * `useOpenApiDocument()`'s beforeAll ran.
 */
export const run = promisify(execFile);
export const bin = (name: string) => path.join(repoRoot, 'node_modules', '.bin', name);
export const workDir = path.join(repoRoot, 'test-artifacts', `openapi-lint-${process.pid}`);
/** The linters run offline: no telemetry, no update check. */
export const lintEnv = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

export type Operation = Record<string, any>;

export function operationsOf(document: any): Array<[string, Operation]> {
  return Object.entries<Record<string, Operation>>(document.paths).flatMap(([route, operations]) =>
    Object.entries(operations).map(([method, operation]): [string, Operation] => [
      `${method.toUpperCase()} ${route}`,
      operation,
    ]),
  );
}

export let app: TestApp;
export let document: any;

/** Boots the service and fetches its document before the file's tests, with a work folder for the linters; removes both after. */
export function useOpenApiDocument(): void {
  beforeAll(async () => {
    app = await bootApp();
    document = (await request(`${app.api}/openapi.json`)).body;
    await mkdir(workDir, { recursive: true });
  });
  afterAll(async () => {
    await app.close();
    await rm(workDir, { recursive: true, force: true });
  });
}
