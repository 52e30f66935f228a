import { describe, expect, it } from 'vitest';
import { queueTestBed } from '../helpers/queues.js';

const bed = queueTestBed();
const { fixture } = bed;

describe('requests express or body-parser cannot read', () => {
  it.each(['gzip', 'deflate', 'br'])(
    'answers a body that does not decompress (%s) with 400 and the error shape',
    async (encoding) => {
      const response = await fetch(`${bed.app.api}/connections/test`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: 'not compressed at all',
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/^Malformed request: /),
      });
    },
  );

  it('answers bad percent-encoding in the path of an express route (queue events) with 400', async () => {
    const response = await fetch(`${bed.app.api}/c/${fixture.connectionId}/queues/%E0%A4%A/events`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });
});
