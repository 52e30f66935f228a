import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BenchResults, latestSection } from '../bench/readme-table.js';
import { anchorsOf, brokenReason, headingSlug, relativeLinks } from './support/markdown-links.js';

/**
 * The README is the newcomer's path (at most 350 lines); the reference lives in docs/ and the benchmark's
 * figures in test/bench/README.md. Every relative link between them, and every `#anchor`, must land.
 */
const root = path.resolve(import.meta.dirname, '../..');
const readmeMaxLines = 350;
const docs = readdirSync(path.join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const checked = ['README.md', ...docs, 'test/bench/README.md', 'client/README.md', 'CHANGELOG.md'];

describe('README and docs', () => {
  it(`keeps README.md at most ${readmeMaxLines} lines`, () => {
    const lines = readFileSync(path.join(root, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(readmeMaxLines);
  });

  it('keeps the written conventions under the code map, at most 40 lines', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const codeMap = readme.indexOf('\n## Code map\n');
    const conventions = readme.indexOf('\n### Conventions\n');
    expect(codeMap).toBeGreaterThan(-1);
    expect(conventions).toBeGreaterThan(codeMap);
    const section = readme
      .slice(conventions + 1)
      .split(/\n(?=## )/)[0]!
      .trimEnd();
    expect(readme.slice(codeMap + 1, conventions)).not.toMatch(/\n## /);
    expect(section.split('\n').length).toBeLessThanOrEqual(40);
  });

  it('has no relative link or #anchor that points at a missing file or heading', () => {
    const broken = checked.flatMap((file) =>
      relativeLinks(root, file).flatMap((link) => {
        const reason = brokenReason(root, link);
        return reason ? [`${link.file}:${link.line} (${link.target}): ${reason}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('shows the latest benchmark run in test/bench/README.md, the table of results/latest.json', () => {
    const results = JSON.parse(readFileSync(path.join(root, 'test/bench/results/latest.json'), 'utf8')) as BenchResults;
    const benchReadme = readFileSync(path.join(root, 'test/bench/README.md'), 'utf8');
    expect(benchReadme).toContain(latestSection(results));
    expect(benchReadme.match(/^\| target \| figure \|/gm)).toHaveLength(1);
  });

  it('has links to check: the README points into each reference file', () => {
    const targets = relativeLinks(root, 'README.md').map((link) => link.target.split('#')[0]);
    for (const file of [...docs, 'test/bench/README.md']) expect(targets).toContain(file);
  });
});

describe('the link checker', () => {
  it('makes anchors as GitHub does', () => {
    expect(headingSlug('MCP for agents (`/api/mcp`)')).toBe('mcp-for-agents-apimcp');
    expect(headingSlug('Background tasks (`/api/c/:connectionId/tasks`)')).toBe(
      'background-tasks-apicconnectionidtasks',
    );
    expect(headingSlug('/ingest')).toBe('ingest');
    expect(headingSlug('Authentication, organizations and roles')).toBe('authentication-organizations-and-roles');
    expect([...anchorsOf('# A\n## Notes\n```sh\n# not a heading\n```\n### Notes\n')]).toEqual([
      'a',
      'notes',
      'notes-1',
    ]);
  });

  it('finds a broken file and a broken anchor', () => {
    const link = (target: string) => ({ file: 'README.md', line: 1, target });
    expect(brokenReason(root, link('docs/api.md#connections'))).toBeUndefined();
    expect(brokenReason(root, link('docs/nowhere.md'))).toMatch(/no file/);
    expect(brokenReason(root, link('docs/api.md#no-such-heading'))).toMatch(/no heading/);
    expect(brokenReason(root, link('#code-map'))).toBeUndefined();
  });
});
