import { request, type TestApp } from '../../helpers/app.js';
import { sessionCookieOf, testPassword, type SignedInUser } from '../../helpers/auth.js';

const signUpBody = (email: string, extra: Record<string, string> = {}) => ({
  email,
  password: testPassword,
  name: email.split('@')[0]!,
  ...extra,
});

/** A sign-up that may be refused: the response as it came, and the user it would make (cookie '' unless 200). */
export async function signUpWith(app: TestApp, email: string, extra: Record<string, string> = {}) {
  const response = await request(`${app.api}/auth/sign-up/email`, { method: 'POST', body: signUpBody(email, extra) });
  const cookie = response.status === 200 ? sessionCookieOf(response.headers)! : '';
  const user: SignedInUser = {
    userId: response.body?.user?.id,
    email,
    organizationId: response.body?.session?.activeOrganizationId,
    cookie,
    sessionId: cookie.split('=')[1] ?? '',
  };
  return { response, user };
}
