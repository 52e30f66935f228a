import { describe, expect, it } from 'vitest';
import { warmUpQueueLists } from '../../server/discovery/warm-up.js';
import { createLogger } from '../../server/logger.js';
import { envConnectionCatalog } from '../../server/stores/connection-catalog.js';

const now = new Date();
const connection = (id: string) => ({
  id,
  organizationId: null,
  name: id,
  url: 'redis://127.0.0.1:6379',
  environment: 'development' as const,
  prefixes: ['bull'],
  isDefault: id === 'main',
  tls: { enabled: false, allowSelfSigned: false },
  cluster: false,
  protection: 'none' as const,
  source: 'env' as const,
  createdAt: now,
  updatedAt: now,
});
const connections = envConnectionCatalog([connection('main'), connection('other')], () => 'org');
const logger = createLogger({ level: 'silent' });

describe('warmUpQueueLists (startup)', () => {
  it('lists the first page of every environment connection once the indexes are loaded', async () => {
    const steps: string[] = [];
    await warmUpQueueLists({
      connections,
      logger,
      preload: async () => void steps.push('preload'),
      listFirstPage: async (id) => void steps.push(`list ${id}`),
    });
    expect(steps).toEqual(['preload', 'list main', 'list other']);
  });

  it('lets startup go on past its budget, and when a list fails', async () => {
    const never = new Promise<never>(() => undefined);
    await warmUpQueueLists({
      connections,
      logger,
      budgetMs: 20,
      preload: async () => undefined,
      listFirstPage: () => never,
    });
    await warmUpQueueLists({ connections, logger, budgetMs: 20, preload: () => never, listFirstPage: () => never });
    await expect(
      warmUpQueueLists({
        connections,
        logger,
        preload: async () => undefined,
        listFirstPage: async () => Promise.reject(new Error('store down')),
      }),
    ).resolves.toBeUndefined();
  });
});
