import type { TestApp } from '../../helpers/app.js';
import { locationOf, type TestBrowser } from './browser.js';

/**
 * Logs in and consents on the oidc-provider development pages, following
 * redirects until the provider sends the browser back to `appBaseUrl`;
 * returns that callback URL (not yet visited).
 */
export async function loginAtIssuer(
  browser: TestBrowser,
  authorizeUrl: string,
  login: string,
  appBaseUrl: string,
): Promise<URL> {
  let url = authorizeUrl;
  for (let hop = 0; hop < 12; hop += 1) {
    if (url.startsWith(appBaseUrl)) return new URL(url);
    const response = await browser.request(url);
    if (response.status >= 300 && response.status < 400) {
      url = locationOf(response, url);
      continue;
    }
    const page = await response.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (response.status !== 200 || !prompt)
      throw new Error(`unexpected provider page ${response.status}: ${page.slice(0, 300)}`);
    const submitted = await browser.request(url, {
      form: prompt === 'login' ? { prompt, login, password: 'any' } : { prompt },
    });
    url = locationOf(submitted, url);
  }
  throw new Error('too many redirects at the provider');
}

/** The callback URL as the app sees it: the same path and query, on the test server's real address. */
export function onApp(app: TestApp, callback: URL): string {
  return `${app.url}${callback.pathname}${callback.search}`;
}

/** GET /api/auth/sign-in/{provider}: the browser now holds the state cookie; returns the provider URL. */
export async function startSignIn(
  app: TestApp,
  browser: TestBrowser,
  provider: string,
  redirectTo?: string,
): Promise<URL> {
  const query = redirectTo === undefined ? '' : `?redirectTo=${encodeURIComponent(redirectTo)}`;
  const response = await browser.request(`${app.api}/auth/sign-in/${provider}${query}`);
  if (response.status !== 302) throw new Error(`sign-in start answered ${response.status}: ${await response.text()}`);
  return new URL(locationOf(response, app.url));
}

/** Visits the callback on the app; returns where the app sends the browser and the session cookie it set. */
export async function finishOnApp(
  app: TestApp,
  browser: TestBrowser,
  callback: URL,
): Promise<{ location: string; session: string | undefined }> {
  const url = onApp(app, callback);
  const response = await browser.request(url);
  if (response.status !== 302) throw new Error(`callback answered ${response.status}: ${await response.text()}`);
  return { location: response.headers.get('location')!, session: browser.cookie(url, 'bullpen_session') };
}
