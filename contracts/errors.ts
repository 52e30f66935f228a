// The API's error codes, one module for their many importers: the code → status table
// (error-codes.ts), what each code means (error-descriptions.ts) and the body an error answers
// with (error-body.ts).
export * from './error-codes.js';
export * from './error-descriptions.js';
export * from './error-body.js';
