import { defineCommand } from '../command.js';
import { UsageError } from '../context.js';
import { writeJson } from '../output.js';
import { parseAssignment, readDataFlag, setAtPath } from './edit-data.js';

export const editCommand = defineCommand({
  name: 'edit',
  usage: '<queue> <id> (--data JSON | --data @file.json | --data @- | --set path=value ...) [--dry-run]',
  summary:
    "Change a failed or waiting job's data before its next attempt: replace it whole (--data) or set fields (--set); refused while a worker holds the job",
  options: {
    data: { type: 'string' },
    set: { type: 'string', multiple: true, default: [] },
    'dry-run': { type: 'boolean', default: false },
  },
  flagHelp: {
    data: 'the new data: JSON text, @file.json to read a file, or @- to read stdin',
    set: 'set one field, path=value (repeat it): the path in dots (address.city, items.0.sku); the value is JSON when it reads as JSON, else text',
    'dry-run': 'print the data that would be written, change nothing',
  },
  examples: [
    'bullpen edit emails 42 --set to=ada@example.com',
    'bullpen edit emails 42 --set retries=3 --set address.city=Paris',
    'bullpen edit emails 42 --data @fixed.json',
    'bullpen edit emails 42 --data \'{"to": "ada@example.com"}\' --dry-run',
  ],
  arity: [2, 2],
  async run({ client, config, io, connectionId }, { positionals: [queueName, jobId], values }) {
    if (values.data === undefined && values.set.length === 0)
      throw new UsageError('give the new data with --data, or fields with --set path=value');
    const assignments = values.set.map(parseAssignment);
    const job = { connectionId: await connectionId(), queueName: queueName!, jobId: jobId! };
    // Fields are set on the data given, else on the job's data as it is now.
    let data =
      values.data !== undefined ? await readDataFlag(values.data, io.stdin) : (await client.jobs.get.query(job)).data;
    for (const { path, value } of assignments) data = setAtPath(data, path, value);
    if (values['dry-run']) return writeJson(io.stdout, data);
    const updated = await client.jobs.updateData.mutate({ ...job, data });
    if (config.json) return writeJson(io.stdout, updated);
    io.stdout.write(
      `updated the data of job ${jobId} in ${queueName} (${updated.state}):\n${JSON.stringify(data, null, 2)}\n`,
    );
  },
});
