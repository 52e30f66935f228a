// The queue routes' contracts, one module for their many importers; each part lives in the
// file named for what it holds.
export * from './queue-counts.js';
export * from './queue-list.js';
export * from './queue-detail.js';
export * from './queue-controls.js';
export * from './queue-removal.js';
