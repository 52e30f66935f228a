import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importersOf, sourceFiles, soleRouterRoom } from './support/import-graph.js';

/**
 * Each resource in one room: server/ keeps the edges and what two or more rooms share, so a server
 * file that exactly one `routers/<resource>/` folder imports (and no server, client or contracts file)
 * belongs in that folder. Tests do not count as users; `.mjs` and client/ files do.
 */
const root = path.resolve(import.meta.dirname, '../..');

function filesOneRouterOwns(files: readonly string[]): string[] {
  const importers = importersOf(root, files);
  return files
    .filter((file) => file.startsWith('server/'))
    .flatMap((file) => {
      const room = soleRouterRoom(importers.get(file));
      return room ? [`${file} is used only by ${room}/: move it there`] : [];
    });
}

describe('rooms', () => {
  const files = ['contracts', 'server', 'routers', 'client'].flatMap((dir) => sourceFiles(root, dir));

  it('server/ holds no file that only one router folder uses', () => {
    expect(filesOneRouterOwns(files)).toEqual([]);
  });

  it('would catch a server file one router folder owns, and not one two rooms share', () => {
    const importers = (...files: string[]) => new Set(files);
    expect(soleRouterRoom(importers('routers/jobs/a.ts', 'routers/jobs/sub/b.ts'))).toBe('routers/jobs');
    expect(soleRouterRoom(importers('routers/jobs/a.ts', 'routers/queues/b.ts'))).toBeUndefined();
    expect(soleRouterRoom(importers('routers/jobs/a.ts', 'server/http/app.ts'))).toBeUndefined();
    expect(soleRouterRoom(importers('routers/jobs/a.ts', 'client/build/build.mjs'))).toBeUndefined();
    expect(soleRouterRoom(importers('routers/jobs/a.ts', 'test/jobs/a.test.ts'))).toBe('routers/jobs');
    expect(soleRouterRoom(importers('routers/_app.ts'))).toBeUndefined();
  });
});
