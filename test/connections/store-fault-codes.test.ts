import { ReplyError } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { describeError } from '../../server/trpc/errors.js';
import type { StoreConnection } from '../../server/stores/store-connection.js';
import {
  countingMidway,
  isStoreUnavailable,
  storeUnavailable,
  StoreFaultMidway,
} from '../../server/stores/store-errors.js';

const connection = { id: 'c1', name: 'prod' } as StoreConnection;
const reply = (message: string) => new ReplyError(message);

/** The one mapping every route and task uses (server/stores/store-errors.ts), on the replies Redis gives. */
describe('store faults as answers', () => {
  it.each([
    ["OOM command not allowed when used memory > 'maxmemory'.", 'STORE_OUT_OF_MEMORY', /out of memory/],
    ["READONLY You can't write against a read only replica.", 'STORE_UNAVAILABLE', /read-only replica/],
    ['LOADING Redis is loading the dataset in memory', 'STORE_UNAVAILABLE', /loading its dataset/],
  ])('%s → 503 %s', (message, code, says) => {
    expect(isStoreUnavailable(reply(message))).toBe(true);
    const description = describeError(storeUnavailable(connection, reply(message)));
    expect(description).toMatchObject({ code, httpStatus: 503, details: { connectionId: 'c1' } });
    expect(description.message).toMatch(says);
  });

  it('a fault that cut an action short carries the counts it reached', async () => {
    let succeeded = 0;
    const cut = await countingMidway(
      () => ({ succeeded, failed: 1 }),
      async () => {
        succeeded = 41;
        throw reply('OOM command not allowed when used memory > maxmemory');
      },
    ).catch((error: unknown) => error);
    expect(cut).toBeInstanceOf(StoreFaultMidway);
    expect(describeError(storeUnavailable(connection, cut))).toMatchObject({
      code: 'STORE_OUT_OF_MEMORY',
      httpStatus: 503,
      details: { connectionId: 'c1', done: false, succeeded: 41, failed: 1 },
    });
  });

  it('leaves other errors alone', async () => {
    expect(isStoreUnavailable(reply('WRONGTYPE Operation against a key holding the wrong kind of value'))).toBe(false);
    await expect(
      countingMidway(
        () => ({}),
        () => Promise.reject(new Error('bug')),
      ),
    ).rejects.not.toBeInstanceOf(StoreFaultMidway);
  });
});
