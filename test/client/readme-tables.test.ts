import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { errorStatusByCode } from '../../contracts/error-codes.js';
import { appRouter } from '../../routers/_app.js';
import { partsOf, proceduresOf } from '../../server/trpc/trpc-internals.js';
import { readmePath, withTables } from '../../client/build/readme-tables.js';

describe('client/README.md', () => {
  it('has the current procedure and error-code tables (else: npm run client:readme)', async () => {
    const readme = await readFile(readmePath, 'utf8');
    expect(readme).toBe(withTables(readme));
  });

  it('lists every procedure of the router and every error code', async () => {
    const readme = await readFile(readmePath, 'utf8');
    for (const [name, procedure] of Object.entries(proceduresOf(appRouter))) {
      const call = partsOf(procedure).type === 'mutation' ? 'mutate' : 'query';
      expect(readme).toContain(`| \`${name}.${call}\` |`);
    }
    for (const [code, status] of Object.entries(errorStatusByCode))
      expect(readme).toContain(`| \`${code}\` | ${status} |`);
  });
});
