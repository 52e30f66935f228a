import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import { testPassword } from '../helpers/auth.js';
import { repoRoot } from '../helpers/process.js';

const chromiumPath = '/usr/bin/chromium';
const chromiumMissing = !existsSync(chromiumPath);
const artifacts = path.join(repoRoot, 'test-artifacts');

/** Expands an operation, fills its JSON body if any, executes it, and resolves with the status and body shown. */
async function tryItOut(
  page: Page,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: string; body: string }> {
  const operation = page.locator(`.opblock-${method}:has(.opblock-summary-path[data-path="${route}"])`);
  await operation.locator('.opblock-summary').click();
  await operation.locator('button.try-out__btn').click();
  if (body !== undefined) await operation.locator('textarea.body-param__text').fill(JSON.stringify(body));
  await operation.locator('button.execute').click();
  const status = operation.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor({ timeout: 15_000 });
  return {
    status: (await status.textContent())!.trim(),
    body: (await operation.locator('.live-responses-table .response-col_description pre').first().textContent()) ?? '',
  };
}

describe.skipIf(chromiumMissing)(
  'the docs page’s Try it out, authenticated, on a non-default port (headless Chromium)',
  () => {
    let app: TestApp;
    let browser: Browser;
    beforeAll(async () => {
      // Default settings: authentication on, SERVICE_SIGNUP=invite, APP_BASE_URL unset, a random port.
      app = await bootApp({ env: { SERVICE_SIGNUP: undefined } });
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
      await app?.close();
    });

    it('signs up, creates a token and calls a route, all from the page', async () => {
      const port = new URL(app.url).port;
      expect(port).not.toBe('3000');
      expect(app.services.auth.appOrigin).toBe(`http://localhost:${port}`);
      const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
      await page.route(/^(?!http:\/\/localhost:)/, (route) => route.abort());
      await page.goto(`${app.services.auth.appOrigin}/api/docs/`);
      await page.locator('.opblock-summary-path[data-path="/auth/sign-up/email"]').waitFor({ timeout: 20_000 });

      const signedUp = await tryItOut(page, 'post', '/auth/sign-up/email', {
        email: 'docs@example.test',
        password: testPassword,
        name: 'Docs',
      });
      expect(signedUp.status).toBe('200');
      const token = await tryItOut(page, 'post', '/auth/tokens', { name: 'from the docs page', role: 'viewer' });
      expect(token.status).toBe('201');
      expect(token.body).toContain('"token": "bp_');
      const organizations = await tryItOut(page, 'get', '/organizations');
      expect(organizations.status).toBe('200');
      expect(organizations.body).toContain('"role": "owner"');

      await mkdir(artifacts, { recursive: true });
      await page.screenshot({ path: path.join(artifacts, 'docs-try-it-out.png'), fullPage: false });
      // A browser start, a page of 200+ operations and three round trips through it: ~20 s on a busy 2-core machine.
    }, 90_000);
  },
);
