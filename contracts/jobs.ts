// The job routes' contracts, one module for their many importers; each part lives in the file
// named for what it holds.
export * from './job-statuses.js';
export * from './job-list.js';
export * from './job-detail.js';
export * from './job-logs.js';
export * from './job-failures.js';
