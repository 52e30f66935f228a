/** `{APP_BASE_URL}/api/auth/callback/{provider}`: the redirect URI registered at the provider, exactly. */
export function callbackUrl(appBaseUrl: string, providerId: string): string {
  return `${appBaseUrl.replace(/\/+$/, '')}/api/auth/callback/${providerId}`;
}
