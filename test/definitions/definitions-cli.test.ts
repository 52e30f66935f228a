import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { runBullpen } from '../helpers/cli.js';
import { waitFor } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';
import { receiver } from '../alerts/support/alert-fixtures.js';

/**
 * Environment connections (the document's settings for them are the environment's) and the CLI:
 * `bullpen definitions export > file` and `bullpen definitions import file [--dry-run]`, secrets
 * read from the variables the file names. A second connection points at a closed port.
 */
describe('bullpen definitions, on environment connections', () => {
  const bed = queueTestBed({ SERVICE_REDIS_URL_DOWN: 'redis://127.0.0.1:1/0' });
  const hooks = receiver();
  let dir: string;
  let hookUrl: string;
  const bullpen = (args: string[], env: Record<string, string> = {}) =>
    runBullpen(args, { env: { BULLPEN_URL: bed.app.url, ...env } });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bullpen-definitions-'));
    hookUrl = await hooks.start();
    await bed.openQueue('mail').add('hello', {});
  });
  afterAll(async () => {
    await hooks.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('exports the environment connections, and says which store it could not read', async () => {
    const run = await bullpen(['definitions', 'export']);
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(document.connections.map((c: { name: string; source: string }) => [c.name, c.source])).toEqual([
      ['down', 'env'],
      ['main', 'env'],
    ]);
    expect(document.warnings).toEqual([
      expect.stringMatching(
        /^The store of connection "down" is unavailable: .*: its queue settings and job schedulers are not in this document$/,
      ),
    ]);
    await writeFile(path.join(dir, 'defs.json'), run.stdout);
  });

  it("imports schedulers, queue settings, rules and a destination under an environment connection; its own settings stay the environment's", async () => {
    const document = JSON.parse(await readFile(path.join(dir, 'defs.json'), 'utf8'));
    const main = document.connections.find((c: { name: string }) => c.name === 'main');
    Object.assign(main, {
      protection: 'read-only',
      queues: [{ queueName: 'mail', globalConcurrency: 3 }],
      schedulers: [{ queueName: 'mail', schedulerId: 'beat', name: 'beat', schedule: { type: 'every', everyMs: 250 } }],
      alertRules: [{ name: 'mail stuck', type: 'stalled', threshold: 0, windowMinutes: 30, destinations: ['pager'] }],
    });
    document.connections = [main];
    document.alertDestinations = [
      {
        name: 'pager',
        type: 'webhook',
        target: { secret: 'pager.url', env: 'PAGER_URL' },
        signingSecret: { secret: 'pager.key', env: 'PAGER_KEY' },
      },
    ];
    const file = path.join(dir, 'edited.json');
    await writeFile(file, JSON.stringify(document));

    const dry = await bullpen(['definitions', 'import', file, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^create\s+scheduler\s+main\/mail\/beat\s*$/m);
    expect(dry.stdout).toMatch(/^create\s+queueSettings\s+main\/mail\s*$/m);
    expect(dry.stdout).toMatch(/^would create 4, change 0, unchanged 0, not in the file 1 \(left as they are\)$/m);
    expect(dry.stdout).toContain('missing secret pager.url (set PAGER_URL): alert destination pager (create)\n');
    expect(dry.stdout).not.toMatch(/^\S+\s+connection\s+main/m);

    const refused = await bullpen(['definitions', 'import', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/SECRETS_MISSING, HTTP 400/);
    expect(refused.stderr).toContain('missing secret pager.key (set PAGER_KEY)');
    expect((await request(`${bed.app.api}/c/main/scheduled-jobs/queue/mail`)).body.schedulers).toEqual([]);

    const applied = await bullpen(['definitions', 'import', file], {
      PAGER_URL: hookUrl,
      PAGER_KEY: 'whsec_known-to-the-receiver',
    });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^created 4, changed 0, unchanged 0, not in the file 1/m);
    const queue = bed.openQueue('mail');
    expect(await queue.getGlobalConcurrency()).toBe(3);
    const connection = (await request(`${bed.app.api}/connections/main`)).body;
    expect(connection.protection).toBe('none');
    const ran: string[] = [];
    const worker = new Worker('mail', async (job) => void ran.push(job.name), bed.fixture.bullmq);
    bed.closeLater(worker);
    await waitFor(() => ran.includes('beat'), 10_000, 'a worker to run what the imported scheduler produced');
    await worker.close();

    const again = await bullpen(['definitions', 'import', file, '--all'], {
      PAGER_URL: hookUrl,
      PAGER_KEY: 'whsec_known-to-the-receiver',
    });
    expect(again.stdout).toMatch(/^created 0, changed 0, unchanged 4, not in the file 1/m);
    expect(again.stdout).toMatch(/^unchanged\s+scheduler\s+main\/mail\/beat/m);
  });

  it('refuses usage it cannot read with exit code 2', async () => {
    expect((await bullpen(['definitions', 'import'])).code).toBe(2);
    expect((await bullpen(['definitions', 'import', path.join(dir, 'nope.json')])).code).toBe(2);
    expect((await bullpen(['definitions', 'export', 'extra'])).code).toBe(2);
    const unknown = await request(`${bed.app.api}/definitions`, {
      method: 'POST',
      body: { definitions: { bullpenDefinitions: 1, connections: [{ name: 'elsewhere' }] } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/"elsewhere" is not one of the environment's/);
  });
});
