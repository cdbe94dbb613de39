import { parseArgs } from 'node:util';
import { startWebhookListener } from '../webhooks/listen/webhook-listener.js';

const USAGE = `Usage: WEBHOOK_SECRET=whsec_… npm run webhooks:listen -- [--port 4000] [--host 127.0.0.1]

Receives webhooks, checks each signature with WEBHOOK_SECRET (the secret the subscription was
created or rotated with; an environment variable, so it stays out of the process list) and prints
each delivery. Subscribe it with { "url": "http://127.0.0.1:4000/" } (demo mode allows http and
local addresses).`;

/** `npm run webhooks:listen`: a local receiver to watch a subscription's deliveries. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4000' },
      host: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', default: false },
    },
  });
  const secret = process.env.WEBHOOK_SECRET;
  const port = Number(values.port);
  if (values.help || secret === undefined || !secret.startsWith('whsec_') || !Number.isInteger(port)) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const server = await startWebhookListener({
    port,
    host: values.host,
    secret,
    print: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(`webhooks:listen on ${server.url}, verifying signatures\n`);
  const stop = (): void => {
    server.close(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('webhooks:listen failed to start:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
