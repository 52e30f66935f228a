import type { Session } from 'lucia';
import type { Context } from '../../server/trpc/context.js';

/** Sets the session cookie (HttpOnly, SameSite=Lax, Secure when APP_BASE_URL is https) on the response. */
export function writeSessionCookie(ctx: Context, session: Session): void {
  ctx.res?.append('Set-Cookie', ctx.services.auth.lucia.createSessionCookie(session.id).serialize());
}

export function clearSessionCookie(ctx: Context): void {
  ctx.res?.append('Set-Cookie', ctx.services.auth.lucia.createBlankSessionCookie().serialize());
}
