import { describe, expect, it } from 'vitest';
import { RouteTree } from '../../server/http/rest/route-tree.js';

function tree() {
  const routes = new RouteTree<string>();
  routes.add('GET', '/c/{connectionId}/queues/{queueName}/jobs/{jobId}', 'jobs.get');
  routes.add('POST', '/c/{connectionId}/queues/{queueName}/jobs/retry', 'jobs.retry');
  routes.add('GET', '/c/{connectionId}/store-keys/search', 'keys.search');
  routes.add('GET', '/c/{connectionId}/store-keys/{key}', 'keys.get');
  routes.add('DELETE', '/c/{connectionId}/store-keys/{key}', 'keys.delete');
  routes.add('GET', '/c/{id}/workers', 'workers');
  return routes;
}

describe('the REST route tree', () => {
  it('takes parameters as the raw, still percent-encoded segments, by each route’s own names', () => {
    expect(tree().match('GET', '/c/main/queues/a%2Fb/jobs/42')).toEqual({
      kind: 'found',
      value: 'jobs.get',
      template: '/c/{connectionId}/queues/{queueName}/jobs/{jobId}',
      params: { connectionId: 'main', queueName: 'a%2Fb', jobId: '42' },
    });
    expect(tree().match('GET', '/c/main/workers')).toMatchObject({ value: 'workers', params: { id: 'main' } });
  });

  it('prefers a literal segment, and answers 405 there rather than falling back to a parameter', () => {
    expect(tree().match('GET', '/c/main/store-keys/search')).toMatchObject({ kind: 'found', value: 'keys.search' });
    expect(tree().match('GET', '/c/main/queues/q/jobs/retry')).toEqual({
      kind: 'method',
      allowed: ['POST'],
      template: '/c/{connectionId}/queues/{queueName}/jobs/retry',
    });
    expect(tree().match('PUT', '/c/main/store-keys/k')).toMatchObject({ kind: 'method', allowed: ['DELETE', 'GET'] });
  });

  it('goes back to a parameter when the literal branch leads nowhere', () => {
    expect(tree().match('GET', '/c/main/store-keys/search/more')).toEqual({ kind: 'none' });
    const routes = new RouteTree<string>();
    routes.add('GET', '/a/{x}/b', 'by-param');
    routes.add('GET', '/a/literal', 'literal');
    expect(routes.match('GET', '/a/literal/b')).toMatchObject({ value: 'by-param', params: { x: 'literal' } });
  });

  it('matches literals case-insensitively, ignores a trailing slash, never takes an empty segment as a parameter', () => {
    expect(tree().match('GET', '/C/main/WORKERS/')).toMatchObject({ value: 'workers' });
    expect(tree().match('GET', '/c//workers')).toEqual({ kind: 'none' });
    expect(tree().match('GET', '/c/main')).toEqual({ kind: 'none' });
  });

  it('serves HEAD from the GET route', () => {
    expect(tree().match('HEAD', '/c/main/workers')).toMatchObject({ kind: 'found', value: 'workers' });
  });
});
