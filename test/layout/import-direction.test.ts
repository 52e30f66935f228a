import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The design card's layers: routers → server → contracts. Only the server's entries (main, the HTTP
 * app, the OpenAPI document) import the root router; a router folder reads only its own files. The
 * root-level router files (`routers/_app.ts`, the root router; `routers/_bullpen.ts`, the package's
 * in-process entry built on it) may read any of routers/.
 */
const root = path.resolve(import.meta.dirname, '../..');
const serverEntries = new Set(['server/main.ts', 'server/http/app.ts', 'server/http/openapi-document.ts']);
const layerRank: Record<string, number> = { contracts: 0, server: 1, routers: 2 };

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** Every relative import of a file, as a repository path. */
function projectImports(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!);
  return specifiers.map((specifier) =>
    path.normalize(path.join(path.dirname(file), specifier)).replace(/\.js$/, '.ts'),
  );
}

function violations(file: string, targets = projectImports(file)): string[] {
  const [layer, resource] = file.split('/');
  return targets
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

describe('import direction', () => {
  const files = ['contracts', 'server', 'routers'].flatMap(sourceFiles);

  it('finds the sources it checks', () => {
    expect(files.filter((file) => file.startsWith('routers/')).length).toBeGreaterThan(50);
    expect(files).toContain('server/http/app.ts');
  });

  it('runs routers → server → contracts, with only the server entry importing the root router', () => {
    expect(files.flatMap((file) => violations(file))).toEqual([]);
  });

  it('would catch each kind of wrong arrow', () => {
    expect(violations('contracts/queues.ts', ['server/config.ts'])).toHaveLength(1);
    expect(violations('server/stores/store-registry.ts', ['routers/_app.ts'])).toHaveLength(1);
    expect(violations('server/http/app.ts', ['routers/queues/purge.ts'])).toHaveLength(1);
    expect(violations('routers/queues/purge.ts', ['routers/jobs/list-jobs.ts'])).toHaveLength(1);
    expect(violations('routers/queues/purge.ts', ['client/index.ts'])).toHaveLength(1);
    expect(
      violations('server/http/app.ts', ['routers/_app.ts', 'server/config.ts', 'contracts/error-codes.ts']),
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
