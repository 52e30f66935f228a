// The Node.js flags the service runs with: `npm start` (package.json) and the image's CMD (Dockerfile)
// pass them, and test/deploy/node-flags.test.ts holds both to this list.
//
// --experimental-async-context-frame: AsyncLocalStorage (MikroORM's transaction and request contexts)
// without a promise hook on every promise of every request; the hooks cost a job read ~10 % of its
// CPU. It is the default from Node.js 24.
// --max-semi-space-size=4: V8's young generation grows to 3 × 16 MB by default, all of it resident
// once a burst of requests has gone through; a request's garbage is a few kilobytes, so 3 × 4 MB
// scavenges often enough and keeps ~23 MB off the service's RSS (160 -> 137 MiB after start).
export const serviceNodeFlags = ['--experimental-async-context-frame', '--max-semi-space-size=4'];
