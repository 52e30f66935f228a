import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Queue } from 'bullmq';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import { repoRoot } from '../helpers/process.js';
import { storeFixture } from '../helpers/stores.js';

const chromiumPath = '/usr/bin/chromium';
const chromiumMissing = !existsSync(chromiumPath);
if (chromiumMissing) {
  console.warn(
    `docs page test skipped: no Chromium at ${chromiumPath} (Debian: apt-get install -y chromium; .ci/run installs it)`,
  );
}

const artifacts = path.join(repoRoot, 'test-artifacts');
const purgePath = '/c/{connectionId}/queues/{queueName}/purge';

/** What the page's Content-Security-Policy refused, as Chromium reports it on the console. */
function policyViolations(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  return refused;
}

describe.skipIf(chromiumMissing)('the /api/docs page in headless Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  const store = storeFixture();
  let queue: Queue;
  beforeAll(async () => {
    app = await bootApp({ env: store.env });
    queue = new Queue('emails', store.bullmq);
    await queue.add('welcome', {});
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await queue?.close();
    await app?.close();
    await store.cleanup();
  });

  it('renders the document offline and shows the purge operation with its 409', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const outside: string[] = [];
    // Everything the page needs is served by the service itself (swagger-ui-dist), nothing from the internet.
    await page.route(/^(?!http:\/\/127\.0\.0\.1)/, (route) => {
      outside.push(route.request().url());
      return route.abort();
    });
    const refused = policyViolations(page);
    const loaded = await page.goto(`${app.api}/docs/`);
    expect(loaded?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    const purge = page.locator(`.opblock-post:has(.opblock-summary-path[data-path="${purgePath}"])`);
    await purge.waitFor({ timeout: 15_000 });
    await expect(purge.locator('.opblock-summary-description').textContent()).resolves.toBe(
      'Remove every job of the selected statuses; the queue stays',
    );
    await purge.locator('.opblock-summary').click();
    const conflict = purge.locator('.responses-table tr.response[data-code="409"]');
    await conflict.waitFor({ timeout: 10_000 });
    await expect(conflict.textContent()).resolves.toContain('PURGE_CAP_REACHED');
    await expect(conflict.textContent()).resolves.toContain('Safety cap of 500 batches');
    await mkdir(artifacts, { recursive: true });
    await page.screenshot({ path: path.join(artifacts, 'docs-purge.png'), fullPage: false });
    expect(await page.title()).toBe('Bullpen API reference');
    expect(outside).toEqual([]);
    expect(refused).toEqual([]);
  });

  it('Try-it-out pre-fills a purge body the service accepts as is', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const refused = policyViolations(page);
    await page.goto(`${app.api}/docs/`);
    const purge = page.locator(`.opblock-post:has(.opblock-summary-path[data-path="${purgePath}"])`);
    await purge.waitFor({ timeout: 15_000 });
    await purge.locator('.opblock-summary').click();
    await purge.locator('button.try-out__btn').click();
    const body = purge.locator('textarea.body-param__text');
    await body.waitFor({ timeout: 10_000 });
    expect(JSON.parse(await body.inputValue())).toEqual({ confirmName: 'emails', statuses: ['completed', 'failed'] });
    await purge.locator('tr[data-param-name="connectionId"] input').fill(store.connectionId);
    await purge.locator('tr[data-param-name="queueName"] input').fill('emails');
    await purge.locator('button.execute').click();
    const status = purge.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor({ timeout: 10_000 });
    expect((await status.textContent())?.trim()).toBe('200');
    expect(refused).toEqual([]);
  });
});
