import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../server/http/openapi-document.js';
import { defaultDocumentMode } from '../../server/http/openapi/document-mode.js';

const securityOf = (document: ReturnType<typeof buildOpenApiDocument>, path: string, method: string) =>
  (document.paths?.[path] as Record<string, { security?: unknown }> | undefined)?.[method]?.security;

/**
 * An embedder may build an authless instance and a normal one in one process (createBullpen twice): the
 * authless document clears every operation's security in place, and the plain routes' and the MCP
 * endpoint's operations are module-level objects, so it must work on copies of them.
 */
describe('the OpenAPI document of one mode after the other in one process', () => {
  it('keeps the credentials of the normal document after an authless one was built', () => {
    const authless = buildOpenApiDocument('0.0.0', { ...defaultDocumentMode, authless: true });
    expect(securityOf(authless, '/mcp', 'post')).toEqual([]);
    const normal = buildOpenApiDocument('0.0.0', defaultDocumentMode);
    expect(securityOf(normal, '/mcp', 'post')).toEqual([{ bearerAuth: [] }]);
    expect(securityOf(normal, '/c/{connectionId}/queues/{queueName}/events', 'get')).toEqual([
      { bearerAuth: [] },
      { cookieAuth: [] },
    ]);
  });
});
