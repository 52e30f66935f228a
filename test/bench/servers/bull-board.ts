/** bull-board's API over the same queues: what users run instead of Bullpen. */
import express from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { manyQueueNames, queueOpener, serverArguments } from './shared.js';

const { redisPort, port, queueCount } = serverArguments();
const serverAdapter = new ExpressAdapter();
serverAdapter.setBasePath('/ui');
const openQueue = queueOpener(redisPort);
createBullBoard({
  queues: manyQueueNames(queueCount).map((name) => new BullMQAdapter(openQueue(name))),
  serverAdapter,
});
const app = express();
app.use('/ui', serverAdapter.getRouter());
app.listen(port, '127.0.0.1');
