import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import { repoRoot } from '../helpers/process.js';

const chromiumPath = '/usr/bin/chromium';
const chromiumMissing = !existsSync(chromiumPath);
if (chromiumMissing) {
  console.warn(`docs page test skipped: no Chromium at ${chromiumPath} (Debian: apt-get install -y chromium; .ci/run installs it)`);
}

const artifacts = path.join(repoRoot, 'test-artifacts');
const purgePath = '/c/{connectionId}/queues/{queueName}/purge';

describe.skipIf(chromiumMissing)('the /api/docs page in headless Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_AUTHLESS: 'true' } });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('renders the document offline and shows the purge operation with its 409', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const outside: string[] = [];
    // Everything the page needs is served by the service itself (swagger-ui-dist), nothing from the internet.
    await page.route(/^(?!http:\/\/127\.0\.0\.1)/, (route) => {
      outside.push(route.request().url());
      return route.abort();
    });
    await page.goto(`${app.api}/docs/`);
    const purge = page.locator(`.opblock-post:has(.opblock-summary-path[data-path="${purgePath}"])`);
    await purge.waitFor({ timeout: 15_000 });
    await expect(purge.locator('.opblock-summary-description').textContent()).resolves.toBe('Remove every job of the selected statuses; the queue stays');
    await purge.locator('.opblock-summary').click();
    const conflict = purge.locator('.responses-table tr.response[data-code="409"]');
    await conflict.waitFor({ timeout: 10_000 });
    await expect(conflict.textContent()).resolves.toContain('Safety cap of 500 batches');
    await mkdir(artifacts, { recursive: true });
    await page.screenshot({ path: path.join(artifacts, 'docs-purge.png'), fullPage: false });
    expect(await page.title()).toBe('Bullpen API reference');
    expect(outside).toEqual([]);
  });
});
