// A delivery thread: the WebhookDeliverer on a worker thread of its own, started by DeliveryThread.
import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import { NestFactory } from '@nestjs/core';
import { PinoNestLogger } from '../../../logging/pino-nest-logger.js';
import { createRootLogger } from '../../../logging/root-logger.js';
import { WebhookDeliverer } from '../webhook-deliverer.js';
import { WebhookDeliveryModule } from '../webhook-delivery.module.js';
import { configFromThreadData, type DeliveryThreadData } from './delivery-thread-protocol.js';
import { ThreadDeliveryHostModule } from './thread-delivery-host.module.js';

if (parentPort === null) throw new Error('a delivery thread is started by the service, as a worker thread');
const service = parentPort;
const data = workerData as DeliveryThreadData;
const config = configFromThreadData(data.config);

const app = await NestFactory.createApplicationContext(
  WebhookDeliveryModule.within(ThreadDeliveryHostModule.for(config, data.activity, service)),
  {
    logger: new PinoNestLogger(createRootLogger(config, null).child({ thread: 'webhook-delivery' })),
    // A failed start ends this thread (the service starts another), never the whole process.
    abortOnError: false,
  },
);
const deliverer = app.get(WebhookDeliverer);
// The service's one message, STOP: deliveries in flight are cut short, the connections closed,
// and the thread ends (process.exit in a worker ends the thread alone), whatever handle a library
// may still hold.
service.once('message', () => {
  void deliverer
    .stop()
    .then(() => app.close())
    .finally(() => process.exit());
});
await deliverer.start();
