import { createAuthService } from './auth/auth-service.js';
import { createPasswordResetLink } from './auth/password-reset.js';
import { normalizeEmail } from './auth/views.js';
import { ConfigError, loadConfigFromProcessEnv } from './config.js';
import { createLogger } from './logger.js';
import { User } from './persistence/entities/user.js';
import { openPersistence } from './persistence/persistence.js';

/**
 * `npm run admin -- reset-password <email>`: recovery on the server itself,
 * for a locked-out sole owner. Needs the service's environment (database and
 * AUTH_SECRET), not the network: prints a one-time reset link (1 hour).
 */
const usage = 'usage: npm run admin -- reset-password <email>';

async function main(args: string[]): Promise<number> {
  const [command, email] = args;
  if (command !== 'reset-password' || !email) {
    console.error(usage);
    return 2;
  }
  const config = loadConfigFromProcessEnv();
  if (config.authless) {
    console.error('bullpen admin: SERVICE_AUTHLESS=true: there are no passwords to reset');
    return 1;
  }
  const logger = createLogger({ level: 'warn' });
  const persistence = await openPersistence(config, logger);
  try {
    const auth = await createAuthService(config, logger, persistence);
    const em = persistence.fork();
    const user = await em.findOne(User, { email: normalizeEmail(email) });
    if (!user) {
      console.error(`bullpen admin: no user has the email ${email}`);
      return 1;
    }
    const link = await createPasswordResetLink({
      em,
      hash: auth.hash,
      appBaseUrl: auth.appBaseUrl,
      userId: user.id,
      createdByUserId: null,
    });
    console.log(
      `Password reset link for ${user.email} (valid until ${link.expiresAt}, works once):\n${link.url}\n` +
        `Or: POST /api/auth/reset-password {"token":"${link.token}","newPassword":"..."}`,
    );
    return 0;
  } finally {
    await persistence.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(`bullpen admin: ${error instanceof ConfigError ? error.message : (error as Error).message}`);
  process.exitCode = 1;
}
