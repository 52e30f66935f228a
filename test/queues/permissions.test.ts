import { describe, expect, it } from 'vitest';
import { appRouter } from '../../routers/_app.js';
import { partsOf, proceduresOf } from '../../server/trpc/trpc-internals.js';

describe('queue procedures', () => {
  it('declare the permission of their action', () => {
    const procedures = proceduresOf(appRouter);
    const declared = Object.fromEntries(
      Object.entries(procedures)
        .filter(([path]) => path.startsWith('queues.'))
        .map(([path, procedure]) => [path, partsOf(procedure).meta?.permission]),
    );
    expect(declared).toEqual({
      'queues.list': 'queues.read',
      'queues.get': 'queues.read',
      'queues.canDelete': 'queues.read',
      'queues.pause': 'queues.pause',
      'queues.resume': 'queues.pause',
      'queues.clean': 'queues.clean',
      'queues.purge': 'queues.purge',
      'queues.obliterate': 'queues.obliterate',
      'queues.delete': 'queues.delete',
      'queues.setGlobalConcurrency': 'queues.limits',
      'queues.removeGlobalConcurrency': 'queues.limits',
      'queues.setGlobalRateLimit': 'queues.limits',
      'queues.removeGlobalRateLimit': 'queues.limits',
      'queues.clearRateLimit': 'queues.limits',
    });
  });
});
