import type { Command } from './command.js';
import { alertsCommand } from './commands/alerts.js';
import { connectionsCommand } from './commands/connections.js';
import { definitionsCommand } from './commands/definitions.js';
import { editCommand } from './commands/edit.js';
import { failuresCommand } from './commands/failures.js';
import { historyCommand } from './commands/history.js';
import { insightsCommand } from './commands/insights.js';
import { inviteCommand } from './commands/invite.js';
import { jobCommand } from './commands/job.js';
import { jobsCommand } from './commands/jobs.js';
import { keysCommand } from './commands/keys.js';
import { moveCommand } from './commands/move.js';
import { obliterateCommand } from './commands/obliterate.js';
import { pauseCommand, resumeCommand } from './commands/pause.js';
import { purgeCommand } from './commands/purge.js';
import { queuesCommand } from './commands/queues.js';
import { removeCommand } from './commands/remove.js';
import { retryCommand } from './commands/retry.js';
import { tasksCommand } from './commands/tasks.js';
import { topCommand } from './commands/top.js';
import { watchCommand } from './commands/watch.js';

/** Every command, in the order `bullpen --help` lists them. */
export const commands: Command[] = [
  connectionsCommand,
  queuesCommand,
  jobsCommand,
  jobCommand,
  failuresCommand,
  editCommand,
  retryCommand,
  removeCommand,
  purgeCommand,
  obliterateCommand,
  pauseCommand,
  resumeCommand,
  keysCommand,
  watchCommand,
  historyCommand,
  insightsCommand,
  topCommand,
  alertsCommand,
  tasksCommand,
  moveCommand,
  inviteCommand,
  definitionsCommand,
];
