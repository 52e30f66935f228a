import type { RepeatOptions } from 'bullmq';
import type { Schedule } from '../../contracts/schedulers.js';
import { AppError } from '../../contracts/app-error.js';
import { loadCronParser } from './cron-parser-module.js';

function invalid(field: string, message: string): AppError {
  const path = ['schedule', field];
  return new AppError('VALIDATION_FAILED', `Invalid input: ${path.join('.')}: ${message}`, {
    issues: [{ path, message }],
  });
}

function checkTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw invalid('timezone', `"${timezone}" is not an IANA timezone`);
  }
}

async function checkCron(pattern: string, timezone: string | undefined): Promise<void> {
  const parser = await loadCronParser();
  try {
    parser.parse(pattern, { tz: timezone, strict: false });
  } catch (error) {
    throw invalid('pattern', `"${pattern}" is not a valid cron pattern (${(error as Error).message})`);
  }
}

/**
 * Checks a schedule before anything is written (400 naming the field) and
 * turns it into BullMQ's repeat options.
 */
export async function toRepeatOptions(schedule: Schedule): Promise<Omit<RepeatOptions, 'key'>> {
  if (schedule.timezone !== undefined) checkTimezone(schedule.timezone);
  if (schedule.type === 'cron') {
    if (!schedule.pattern) throw invalid('pattern', 'is required when type is cron');
    if (schedule.everyMs !== undefined) throw invalid('everyMs', 'is only for type every');
    await checkCron(schedule.pattern, schedule.timezone);
  } else {
    if (schedule.everyMs === undefined) throw invalid('everyMs', 'is required when type is every');
    if (schedule.pattern !== undefined) throw invalid('pattern', 'is only for type cron');
    if (schedule.immediately) throw invalid('immediately', 'is only for type cron (interval schedulers start at once)');
  }
  if (schedule.immediately && schedule.startDate) throw invalid('immediately', 'cannot be combined with startDate');
  if (schedule.startDate && schedule.endDate && Date.parse(schedule.endDate) <= Date.parse(schedule.startDate)) {
    throw invalid('endDate', 'must be after startDate');
  }
  if (schedule.endDate && Date.parse(schedule.endDate) <= Date.now()) throw invalid('endDate', 'must be in the future');
  return {
    ...(schedule.type === 'cron' ? { pattern: schedule.pattern } : { every: schedule.everyMs }),
    ...(schedule.timezone ? { tz: schedule.timezone } : {}),
    ...(schedule.startDate ? { startDate: schedule.startDate } : {}),
    ...(schedule.endDate ? { endDate: schedule.endDate } : {}),
    ...(schedule.limit ? { limit: schedule.limit } : {}),
    ...(schedule.immediately ? { immediately: true } : {}),
  };
}
