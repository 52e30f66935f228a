/**
 * Just enough of a browser for sign-in flows: a cookie jar per host,
 * redirects followed by hand so each hop can be inspected or tampered with.
 */
export class TestBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  cookieHeader(url: string): string {
    return [...(this.jars.get(new URL(url).host) ?? new Map<string, string>()).entries()]
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
  }

  cookie(url: string, name: string): string | undefined {
    return this.jars.get(new URL(url).host)?.get(name);
  }

  /** Puts a cookie in the jar, as if `url`'s host had set it (a session from an email sign-in, say). */
  set(url: string, name: string, value: string): void {
    const jar = this.jars.get(new URL(url).host) ?? new Map<string, string>();
    jar.set(name, value);
    this.jars.set(new URL(url).host, jar);
  }

  private remember(url: string, response: Response): void {
    const jar = this.jars.get(new URL(url).host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.trim().split('=');
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value.join('=') === '';
      if (expired) jar.delete(name!);
      else jar.set(name!, value.join('='));
    }
    this.jars.set(new URL(url).host, jar);
  }

  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const response = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        cookie: this.cookieHeader(url),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...init.headers,
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    this.remember(url, response);
    return response;
  }
}

export function locationOf(response: Response, base: string): string {
  const location = response.headers.get('location');
  if (!location) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location, base).href;
}
