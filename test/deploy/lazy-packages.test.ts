import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { compiledServiceEntry } from '../helpers/compiled-service.js';

/**
 * Packages only some installs or some requests need, loaded on first use (memory after start is a
 * target, issue 16): one database driver of the two, OAuth (openid-client with oauth4webapi and jose,
 * ~1.3 MB resident) when a provider signs someone in, the tRPC HTTP adapter on the first /api/trpc call,
 * the docs page's assets when it is opened, BullMQ (~4-5 MiB resident with msgpackr and its other
 * backends) on the first request that needs a Queue or a job's options, cron-parser (with luxon) on the
 * first cron schedule read, the MCP SDK (with hono and ajv) on the first /api/mcp request. A static
 * import anywhere in the service would load them at startup.
 */
const loadedOnFirstUse = [
  'openid-client',
  '@mikro-orm/postgresql',
  '@mikro-orm/sqlite',
  '@trpc/server/adapters/express',
  'swagger-ui-express',
  'bullmq',
  'cron-parser',
  '@modelcontextprotocol/sdk/server/index.js',
  '@modelcontextprotocol/sdk/server/streamableHttp.js',
  '@modelcontextprotocol/sdk/types.js',
];

const escaped = (name: string) => name.replace(/[/.-]/g, (character) => `\\${character}`);

describe('the compiled service', () => {
  it.each(loadedOnFirstUse)('imports %s only dynamically', async (name) => {
    const code = await readFile(await compiledServiceEntry(), 'utf8');
    expect(code).toContain(`import("${name}")`);
    expect(code).not.toMatch(new RegExp(`(from|import)\\s*"${escaped(name)}"`));
  });

  it('loads the rate limiter classes it uses from their files, never the package index and its ~25 store adapters', async () => {
    const code = await readFile(await compiledServiceEntry(), 'utf8');
    expect(code).toContain('"rate-limiter-flexible/lib/RateLimiterMemory.js"');
    expect(code).not.toMatch(/(from|import|\()\s*"rate-limiter-flexible"/);
  });
});
