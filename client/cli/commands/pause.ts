import { defineCommand } from '../command.js';
import { writeJson } from '../output.js';

function pauseSwitch(paused: boolean) {
  return defineCommand({
    name: paused ? 'pause' : 'resume',
    usage: '<queue>',
    summary: paused ? 'Pause a queue: workers take no new jobs' : 'Resume a paused queue',
    options: {},
    flagHelp: {},
    examples: paused
      ? ['bullpen pause emails', 'bullpen pause emails --conn production']
      : ['bullpen resume emails', 'bullpen resume emails --conn production'],
    arity: [1, 1],
    async run({ client, config, io, connectionId }, { positionals: [queueName] }) {
      const input = { connectionId: await connectionId(), queueName: queueName! };
      const result = await (paused ? client.queues.pause.mutate(input) : client.queues.resume.mutate(input));
      if (config.json) return writeJson(io.stdout, result);
      io.stdout.write(`${queueName} is ${result.isPaused ? 'paused' : 'running'}\n`);
    },
  });
}

export const pauseCommand = pauseSwitch(true);
export const resumeCommand = pauseSwitch(false);
