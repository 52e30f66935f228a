import { readFile } from 'node:fs/promises';
import type { AnyProcedure } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { errorStatusByCode } from '../../contracts/errors.js';
import { appRouter } from '../../routers/_app.js';
import { readmePath, withTables } from '../../client/build/readme-tables.js';

describe('client/README.md', () => {
  it('has the current procedure and error-code tables (else: npm run client:readme)', async () => {
    const readme = await readFile(readmePath, 'utf8');
    expect(readme).toBe(withTables(readme));
  });

  it('lists every procedure of the router and every error code', async () => {
    const readme = await readFile(readmePath, 'utf8');
    for (const [name, procedure] of Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>)) {
      const call = procedure._def.type === 'mutation' ? 'mutate' : 'query';
      expect(readme).toContain(`| \`${name}.${call}\` |`);
    }
    for (const [code, status] of Object.entries(errorStatusByCode)) expect(readme).toContain(`| \`${code}\` | ${status} |`);
  });
});
