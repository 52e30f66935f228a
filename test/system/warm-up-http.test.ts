import { describe, expect, it } from 'vitest';
import { warmUpHttp } from '../../server/http/warm-up-http.js';

describe('warmUpHttp (one request through the app before the service listens)', () => {
  it('sends one GET of the path through the app’s own listener, then closes its server', async () => {
    const seen: string[] = [];
    await warmUpHttp(
      {
        serverOptions: {},
        listener: (req, res) => {
          seen.push(`${req.method} ${req.url}`);
          res.end('ok');
        },
      },
      '/api/health',
    );
    expect(seen).toEqual(['GET /api/health']);
  });

  it('gives up after its budget when the app does not answer, and startup goes on', async () => {
    const started = performance.now();
    await warmUpHttp({ serverOptions: {}, listener: () => undefined }, '/api/health', 100);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
