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

// The environment the service starts with, the same three ways (a value the caller set wins in
// `npm start`). MALLOC_ARENA_MAX=1: glibc gives each thread that allocates (V8's compiler and GC
// workers, libuv's pool) an arena of its own, up to 8 per core, and memory freed in one is kept
// there; one arena keeps startup's ~10 MB of compiler scratch reusable. Measured: RSS after start
// −6 to −8 MiB, no change in CPU per request at 16 connections (git log -p -- README.md, Memory). Other libcs ignore it.
export const serviceEnvironment = { MALLOC_ARENA_MAX: '1' };
