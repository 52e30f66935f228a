import { describe, expect, it } from 'vitest';
import { TestBrowser } from './browser.js';
import { account, app, providerRoundTrip, useOidcApp } from './oidc-app.js';
import { offOriginRedirects } from './safe-redirect-cases.js';
import { finishOnApp } from './sign-in-flow.js';

useOidcApp();

/** Signs in through the real provider with `redirectTo`; where the app then sends the browser. */
async function landingAfterSignIn(redirectTo: string): Promise<string> {
  const browser = new TestBrowser();
  const landed = await finishOnApp(
    app,
    browser,
    await providerRoundTrip(browser, account('rita', 'rita@example.test'), { redirectTo }),
  );
  expect(landed.session).toBeTruthy();
  return landed.location;
}

describe('the redirect after an OpenID Connect sign-in', () => {
  it('lands on / for every value that leaves the origin once normalised', async () => {
    const landed: Record<string, string> = {};
    for (const redirectTo of offOriginRedirects) landed[redirectTo] = await landingAfterSignIn(redirectTo);
    expect(landed).toEqual(Object.fromEntries(offOriginRedirects.map((value) => [value, '/'])));
  });

  it('keeps a path on the origin, normalised', async () => {
    expect(await landingAfterSignIn('/queues/a/../b?tab=failed#top')).toBe('/queues/b?tab=failed#top');
  });
});
