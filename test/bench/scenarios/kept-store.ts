import type { Redis } from 'ioredis';
import type { ManyQueuesScale } from './many-queues.js';

/** The many-queues store of `queues` queues: 200 other keys per queue (10,000: 2M; 100,000: 20M). */
export const manyQueuesScale = (queues: number): ManyQueuesScale => ({ queues, noiseKeys: queues * 200 });

const seededMarker = 'bench-kept-store:seeded';

/**
 * Seeds the many-queues store, or, with `--keep-store DIR`, reuses the one a
 * run saved there (seeding 20M keys takes a while): the marker says what
 * scale it holds; a store of another scale is seeded again. A saved store is
 * left as the scenario found it (it undoes its own changes).
 */
export async function reuseOrSeed(
  redis: Redis,
  scale: ManyQueuesScale,
  keptDir: string | undefined,
  seed: () => Promise<void>,
): Promise<void> {
  const wanted = `${scale.queues}/${scale.noiseKeys}`;
  if (keptDir && (await redis.get(seededMarker)) === wanted) {
    console.log(`reusing the store kept in ${keptDir} (${wanted})`);
    return;
  }
  await redis.flushall();
  const started = Date.now();
  await seed();
  console.log(`seeded ${await redis.dbsize()} keys in ${Date.now() - started} ms`);
  if (!keptDir) return;
  await redis.set(seededMarker, wanted);
  await redis.save();
}
