/**
 * Where to send the browser after signing in: a path on this origin, never
 * elsewhere (`//evil.example`, `/\evil.example`, `https://…` and anything
 * that resolves off-origin all become `/`).
 */
export function safeRedirectPath(value: unknown, appOrigin: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  // Control characters and backslashes are read differently by browsers; refuse them outright.
  if (/[\u0000-\u001f\u007f\\]/.test(value) || value.length > 2000) return '/';
  try {
    const resolved = new URL(value, appOrigin);
    return resolved.origin === appOrigin ? `${resolved.pathname}${resolved.search}${resolved.hash}` : '/';
  } catch {
    return '/';
  }
}
