import { defineCommand } from '../command.js';
import { formatTable, writeJson } from '../output.js';

export const connectionsCommand = defineCommand({
  name: 'connections',
  usage: '',
  summary: 'List the connections (stores) you can act on; the default is marked',
  options: {},
  flagHelp: {},
  examples: ['bullpen connections', 'bullpen connections --json'],
  arity: [0, 0],
  async run({ client, config, io }) {
    const result = await client.connections.list.query();
    if (config.json) return writeJson(io.stdout, result);
    const rows = result.connections.map((c) => [
      c.isDefault ? `${c.id} *` : c.id,
      c.name,
      c.environment,
      c.protection,
      c.source,
      c.prefixes.join(','),
      c.url,
    ]);
    io.stdout.write(formatTable(['id', 'name', 'environment', 'protection', 'source', 'prefixes', 'url'], rows));
  },
});
