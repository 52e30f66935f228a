import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ProjectImport, projectImports, sourceFiles } from './support/import-graph.js';

/**
 * The design card's layers: routers → server → contracts. Only the server's entries (main, the HTTP
 * app, the OpenAPI document) import the root router; a router folder reads only its own files. The
 * root-level router files (`routers/_app.ts`, the root router; `routers/_bullpen.ts`, the package's
 * in-process entry built on it) may read any of routers/.
 */
const root = path.resolve(import.meta.dirname, '../..');
const serverEntries = new Set(['server/main.ts', 'server/http/app.ts', 'server/http/openapi-document.ts']);
const layerRank: Record<string, number> = { contracts: 0, server: 1, routers: 2 };

/** Build scripts (`server/build/`, `client/build/`) run before the service and may read any layer. */
const isBuildScript = (file: string) => /^(server|client)\/build\//.test(file);

/** The client package runs apart from the service: it may read contracts, and only types of the rest. */
function clientViolations(file: string, imports: ProjectImport[]): string[] {
  return imports
    .filter(({ target, typeOnly }) => !typeOnly && !target.startsWith('client/') && !target.startsWith('contracts/'))
    .map(({ target }) => `${file} imports ${target} at run time: the client package must not carry it`);
}

function violations(file: string, imports = projectImports(root, file)): string[] {
  if (isBuildScript(file)) return [];
  if (file.startsWith('client/')) return clientViolations(file, imports);
  const [layer, resource] = file.split('/');
  return imports
    .map(({ target }) => target)
    .filter((target) => target !== 'package.json')
    .flatMap((target) => {
      const [targetLayer, targetResource] = target.split('/');
      const rank = layerRank[targetLayer!];
      if (rank === undefined) return [`${file} imports ${target}, outside server/routers/contracts`];
      if (rank > layerRank[layer!]!) {
        const entryImportsRoot = layer === 'server' && serverEntries.has(file) && target === 'routers/_app.ts';
        return entryImportsRoot ? [] : [`${file} imports ${target}, a layer above it`];
      }
      const crossResource =
        layer === 'routers' && targetLayer === 'routers' && !resource!.startsWith('_') && targetResource !== resource;
      return crossResource ? [`${file} imports ${target}, another resource's router folder`] : [];
    });
}

const imported = (...targets: string[]) => targets.map((target) => ({ target, typeOnly: false }));

describe('import direction', () => {
  const files = ['contracts', 'server', 'routers', 'client'].flatMap((dir) => sourceFiles(root, dir));

  it('finds the sources it checks', () => {
    expect(files.filter((file) => file.startsWith('routers/')).length).toBeGreaterThan(50);
    expect(files).toContain('server/http/app.ts');
    expect(files).toEqual(expect.arrayContaining(['server/build/start.mjs', 'client/cli/main.ts']));
  });

  it('runs routers → server → contracts, with only the server entry importing the root router', () => {
    expect(files.flatMap((file) => violations(file))).toEqual([]);
  });

  it('would catch each kind of wrong arrow', () => {
    expect(violations('client/cli/main.ts', imported('server/config.ts'))).toHaveLength(1);
    expect(violations('client/index.ts', [{ target: 'routers/_app.ts', typeOnly: true }])).toEqual([]);
    expect(violations('server/build/build.mjs', imported('client/build/build.mjs'))).toEqual([]);
    expect(violations('contracts/queues.ts', imported('server/config.ts'))).toHaveLength(1);
    expect(violations('server/stores/store-registry.ts', imported('routers/_app.ts'))).toHaveLength(1);
    expect(violations('server/http/app.ts', imported('routers/queues/purge.ts'))).toHaveLength(1);
    expect(violations('routers/queues/purge.ts', imported('routers/jobs/list-jobs.ts'))).toHaveLength(1);
    expect(violations('routers/queues/purge.ts', imported('client/index.ts'))).toHaveLength(1);
    expect(
      violations('server/http/app.ts', imported('routers/_app.ts', 'server/config.ts', 'contracts/error-codes.ts')),
    ).toEqual([]);
  });
});

describe('procedure paths', () => {
  it('keep the names clients call (a file rename never renames a tRPC path)', async () => {
    const { appRouter } = await import('../../routers/_app.js');
    const { proceduresOf } = await import('../../server/trpc/trpc-internals.js');
    const paths = Object.keys(proceduresOf(appRouter));
    for (const path of [
      'auth.signUpEmail',
      'auth.signInEmail',
      'auth.signOut',
      'auth.getSession',
      'system.health',
      'queues.purge',
      'jobs.retry',
      'metrics.queue',
    ]) {
      expect(paths).toContain(path);
    }
    expect(paths.filter((path) => /Procedure$/.test(path))).toEqual([]);
  });
});
