// The Node.js flags the service runs with: `npm start` (package.json) and the image's CMD (Dockerfile)
// pass them, and test/deploy/node-flags.test.ts holds both to this list.
//
// --experimental-async-context-frame: AsyncLocalStorage (MikroORM's transaction and request contexts)
// without a promise hook on every promise of every request; the hooks cost a job read ~10 % of its
// CPU. It is the default from Node.js 24.
export const serviceNodeFlags = ['--experimental-async-context-frame'];
