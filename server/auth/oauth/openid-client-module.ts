/** openid-client's API, for the functions that take the loaded module. */
export type OpenIdClient = typeof import('openid-client');

/**
 * openid-client (with oauth4webapi and jose: ~1.3 MB resident) is loaded on the first sign-in
 * through a provider, not at startup: most installs configure none, and the service's memory after
 * start is a target (issue 16). The runtime caches the module; each call after the first is cheap.
 */
export const openIdClient = (): Promise<OpenIdClient> => import('openid-client');
