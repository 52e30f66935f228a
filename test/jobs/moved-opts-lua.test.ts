import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { droppedOptions, movedOpts } from '../../routers/jobs/moved-job.js';
import { movedOptsLua } from '../../server/bullmq/moved-opts-lua.js';

const redis = new Redis({ host: '127.0.0.1', port: 6379 });
afterAll(() => redis.quit());

/** The store's movedOptsText on `opts` (false where it leaves the job to the service). */
const inStore = async (opts: string, targetId: string) =>
  (await redis.eval(
    `${movedOptsLua}\nreturn movedOptsText(ARGV[1], ARGV[2]) or false`,
    0,
    opts,
    JSON.stringify(targetId),
  )) as string | null;

/** Member names as options hold them: the dropped ones, ones that start like them, and any. */
const memberName = fc.oneof(
  fc.constantFrom(...droppedOptions, 'backoff', 'attempts', 'description', 'parentKey', 'jobIds'),
  fc.string({ maxLength: 8 }),
);
const options = fc.dictionary(memberName, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 });

describe("the store's moved options (movedOptsLua) are the service's, byte for byte", () => {
  it('for any options JSON.stringify writes, dropped members at any place, nested or not', async () => {
    await fc.assert(
      fc.asyncProperty(options, fc.string({ maxLength: 12 }), async (opts, targetId) => {
        const text = JSON.stringify(opts);
        // A member name written escaped is the service's to read (rare: BullMQ's own names need none).
        const escapedName = Object.keys(opts).some((name) => JSON.stringify(name) !== `"${name}"`);
        const plainText = !/"jobId"|"de|"repeat|"parent"|"timestamp"|"prevMillis"/.test(text);
        expect(await inStore(text, targetId)).toBe(escapedName && !plainText ? null : movedOpts(text, targetId));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps a nested delay and drops the top-level one', async () => {
    const text = JSON.stringify({ delay: 10, attempts: 3, backoff: { type: 'fixed', delay: 99 }, de: { id: 'x' } });
    expect(await inStore(text, 'q-1')).toBe('{"attempts":3,"backoff":{"type":"fixed","delay":99},"jobId":"q-1"}');
  });

  it.each([
    ['whitespace between members', '{ "attempts": 3, "delay": 5 }'],
    ['an escaped member name', '{"de\\u006cay":5,"attempts":1}'],
    ['not an object', '["delay"]'],
    ['a member without a value', '{"delay":}'],
    ['text after the object', '{"delay":1}}'],
  ])('leaves %s to the service', async (_, text) => {
    expect(await inStore(text, 'q-1')).toBeNull();
  });
});
