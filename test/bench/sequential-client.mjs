// One keep-alive connection, one GET at a time, for a number of seconds; prints each latency in
// microseconds as JSON. Plain JavaScript in its own small process, on a raw socket: the benchmark's
// own process holds seeds and results, and its scavenges (5-10 ms on a busy 2-core machine) landed
// inside the requests it timed, so the load generator's pauses read as the server's p99.
// Usage: node sequential-client.mjs <url> <seconds>
import net from 'node:net';

const [url, secondsArgument] = process.argv.slice(2);
const target = new URL(url);
const request = Buffer.from(
  `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\n\r\n`,
);
const socket = net.connect({ host: target.hostname, port: Number(target.port) });
socket.setNoDelay(true);
await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));

const headerEnd = Buffer.from('\r\n\r\n');
const chunkedEnd = Buffer.from('0\r\n\r\n');

/** Resolves with the status once one whole response (Content-Length or chunked) has arrived. */
function oneResponse() {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk) => {
      received = received.length === 0 ? chunk : Buffer.concat([received, chunk]);
      const headersAt = received.indexOf(headerEnd);
      if (headersAt < 0) return;
      const head = received.subarray(0, headersAt).toString('latin1');
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      const complete = length
        ? received.length >= headersAt + 4 + Number(length[1])
        : received.subarray(received.length - 5).equals(chunkedEnd);
      if (!complete) return;
      socket.off('data', onData).off('error', reject);
      resolve(Number(head.slice(9, 12)));
    };
    socket.on('data', onData).once('error', reject);
  });
}

const latenciesUs = [];
let non2xx = 0;
const started = process.hrtime.bigint();
const until = started + BigInt(Math.round(Number(secondsArgument) * 1e9));
for (let now = started; now < until; now = process.hrtime.bigint()) {
  socket.write(request);
  const status = await oneResponse();
  if (status < 200 || status >= 300) non2xx++;
  latenciesUs.push(Number(process.hrtime.bigint() - now) / 1000);
}
socket.end();
const elapsedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
process.stdout.write(JSON.stringify({ latenciesUs, non2xx, elapsedSeconds }));
