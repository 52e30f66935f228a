import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { prefix } from '../seed.js';

/** Servers under test take the Redis port and their own port as arguments. */
export function serverArguments(): { redisPort: number; port: number; queueCount: number } {
  const [redisPort, port, queueCount] = process.argv.slice(2).map(Number);
  return { redisPort: redisPort!, port: port!, queueCount: queueCount ?? 1000 };
}

export function manyQueueNames(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `orders-${String(index).padStart(4, '0')}`);
}

/** One shared connection for every queue of a server, as Bullpen has: a fair comparison. */
export function queueOpener(redisPort: number): (name: string) => Queue {
  const connection = new Redis({ host: '127.0.0.1', port: redisPort, maxRetriesPerRequest: null });
  return (name) => new Queue(name, { connection, prefix });
}
