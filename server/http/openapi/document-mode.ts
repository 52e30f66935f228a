import type { OpenAPIObject } from 'trpc-to-openapi';

/** What the document says depends on: the mode and where clients reach the service. */
export interface DocumentMode {
  /** SERVICE_AUTHLESS: no route asks for credentials. */
  authless: boolean;
  /** APP_BASE_URL, when set: the one address clients use. */
  appBaseUrl: string | null;
  /** Without APP_BASE_URL, where this process listens (`http://localhost:3000`): the template's default. */
  localUrl: string;
}

export const defaultDocumentMode: DocumentMode = {
  authless: false,
  appBaseUrl: null,
  localUrl: 'http://localhost:3000',
};

/**
 * Absolute: proxies and generators resolve a relative `/api` against
 * wherever they read the document from, which is often not the service.
 * From APP_BASE_URL when set; else a template whose defaults are where this
 * process listens, for the reader to fill in with the address they use.
 */
export function serversFor(mode: DocumentMode, basePath: string): OpenAPIObject['servers'] {
  if (mode.appBaseUrl)
    return [{ url: `${mode.appBaseUrl.replace(/\/$/, '')}${basePath}`, description: 'APP_BASE_URL' }];
  const local = new URL(mode.localUrl);
  return [
    {
      url: `{scheme}://{host}${basePath}`,
      description: 'Where you reach the service (APP_BASE_URL is not set): its scheme, and its host name and port.',
      variables: {
        scheme: { default: local.protocol.replace(':', ''), enum: ['http', 'https'] },
        host: { default: local.host },
      },
    },
  ];
}

/**
 * The document as the docs page shows it: first the page's own origin (a
 * relative server), so "Try it out" calls the service the page came from,
 * whatever address the reader used; then the document's own servers.
 */
export function forDocsPage(document: OpenAPIObject, basePath: string): OpenAPIObject {
  return {
    ...document,
    servers: [{ url: basePath, description: 'This page’s own origin' }, ...(document.servers ?? [])],
  };
}

type Operation = { security?: unknown; responses?: Record<string, unknown> };

/**
 * Authless mode: every route answers without credentials, so the document
 * asks for none: no security schemes (the docs page then shows no Authorize
 * button), no requirement on any operation, and no 401 answer.
 */
export function withoutCredentials(document: OpenAPIObject): void {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations as Record<string, Operation>)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      operation.security = [];
      delete operation.responses?.['401'];
    }
  }
  if (document.components) {
    delete document.components.securitySchemes;
    delete (document.components.responses as Record<string, unknown> | undefined)?.Unauthorized;
  }
}
