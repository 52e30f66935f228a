import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { QueueIndex } from '../../server/discovery/queue-index.js';
import { loadConfig } from '../../server/config.js';
import { collectSample } from '../../server/history/collect-sample.js';
import { writeSample } from '../../server/history/write-sample.js';
import { createLogger } from '../../server/logger.js';
import { openPersistence } from '../../server/persistence/persistence.js';
import { StoreRegistry } from '../../server/stores/store-registry.js';

export interface SamplerCost {
  queues: number;
  /** Median over the rounds: reading the store for one sample. */
  collectMs: number;
  /** Median: writing it (raw rows and roll-ups) to the embedded database. */
  writeMs: number;
  /** Commands the store executed for one sample, those inside scripts included (INFO commandstats). */
  commandsExecuted: number;
  /** Script calls of one sample: the budget is one per 200 queues. */
  scriptCalls: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function commandCalls(redis: Redis): Promise<{ all: number; scripts: number }> {
  const stats = await redis.info('commandstats');
  const calls = [...stats.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)].map(([, name, count]) => ({
    name: name!,
    count: Number(count),
  }));
  return {
    all: calls.reduce((sum, call) => sum + call.count, 0),
    scripts: calls
      .filter((call) => call.name === 'eval' || call.name === 'evalsha')
      .reduce((sum, call) => sum + call.count, 0),
  };
}

/** What one history sample of a store costs: the sampler's work per interval, measured on the bench store. */
export async function measureSamplerCost(
  connection: { host: string; port: number },
  prefix: string,
  rounds = 5,
): Promise<SamplerCost> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-sampler-'));
  const config = loadConfig({ SERVICE_EMBEDDED_DIR: dir, SERVICE_AUTHLESS: 'true', LOG_LEVEL: 'silent' });
  const logger = createLogger({ level: 'silent' });
  const persistence = await openPersistence(config, logger);
  const stores = new StoreRegistry({ logger });
  const now = new Date();
  const store = stores.handle({
    id: 'bench',
    organizationId: null,
    name: 'bench',
    url: `redis://${connection.host}:${connection.port}`,
    environment: 'development',
    prefixes: [prefix],
    isDefault: true,
    tls: { enabled: false, allowSelfSigned: false },
    cluster: false,
    protection: 'none',
    source: 'env',
    createdAt: now,
    updatedAt: now,
  });
  const directory = new QueueIndex({ ttlMs: 60_000 });
  const probe = new Redis({ ...connection, lazyConnect: true });
  try {
    await directory.list(store);
    const collect: number[] = [];
    const write: number[] = [];
    let commands = { all: 0, scripts: 0 };
    let queues = 0;
    for (let round = 0; round < rounds; round++) {
      const before = await commandCalls(probe);
      const started = performance.now();
      const sample = await collectSample(store, directory, Date.now() - 60_000, Date.now());
      collect.push(performance.now() - started);
      const after = await commandCalls(probe);
      // The probe's own INFO is one command.
      commands = { all: after.all - before.all - 1, scripts: after.scripts - before.scripts };
      queues = sample.queues.length;
      const writing = performance.now();
      await writeSample(persistence.fork(), 'bench', { ...sample, at: sample.at + round });
      write.push(performance.now() - writing);
    }
    return {
      queues,
      collectMs: Math.round(median(collect)),
      writeMs: Math.round(median(write)),
      commandsExecuted: commands.all,
      scriptCalls: commands.scripts,
    };
  } finally {
    probe.disconnect();
    await stores.closeAll();
    await persistence.close();
    await rm(dir, { recursive: true, force: true });
  }
}
