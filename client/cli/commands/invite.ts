import type { Role } from '../../../contracts/system.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../context.js';
import { writeJson } from '../output.js';

const roles: Role[] = ['viewer', 'operator', 'admin', 'owner'];

export const inviteCommand = defineCommand({
  name: 'invite',
  usage: '<email> [--role viewer|operator|admin|owner] [--expires-in-hours N]',
  summary: 'Invite someone into your organization (needs an admin token); prints the invitation URL, shown once',
  options: { role: { type: 'string', default: 'viewer' }, 'expires-in-hours': { type: 'string' } },
  flagHelp: {
    role: 'what the new member may do: viewer (default), operator, admin or owner',
    'expires-in-hours': "hours before the invitation lapses (default: the service's)",
  },
  examples: ['bullpen invite ada@example.com', 'bullpen invite ops@example.com --role operator --expires-in-hours 24'],
  arity: [1, 1],
  async run({ client, config, io }, { positionals: [email], values }) {
    if (!roles.includes(values.role as Role)) throw new UsageError(`--role must be one of ${roles.join(', ')}`);
    const hours = values['expires-in-hours'] === undefined ? undefined : Number(values['expires-in-hours']);
    if (hours !== undefined && !Number.isInteger(hours))
      throw new UsageError('--expires-in-hours must be a whole number of hours');
    // The token's own organization: invitations go there.
    const session = await client.system.session.query();
    if (!session.activeOrganization)
      throw new UsageError('no organization to invite into: pass an API token (--token or BULLPEN_TOKEN)');
    const invitation = await client.invitations.create.mutate({
      organizationId: session.activeOrganization.id,
      email: email!,
      role: values.role as Role,
      ...(hours === undefined ? {} : { expiresInHours: hours }),
    });
    if (config.json) return writeJson(io.stdout, invitation);
    io.stdout.write(`${invitation.url}\n`);
    io.stderr.write(
      `invited ${invitation.email} as ${invitation.role} into ${session.activeOrganization.name}; expires ${invitation.expiresAt}\n`,
    );
  },
});
