import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

const USAGE = `Usage: npm run bench:sandbox -- [--url http://127.0.0.1:3000] [--sandbox-url http://127.0.0.1:3100]
        [--runs 50] [--username acme --password acme-demo-2026]
        [--feed-username operator --feed-password operator-demo-2026]

Against a service started with npm start (demo mode): each run makes one change through the
sandbox's control API (a new process for the user's customer) and times how long until it is in
the list, in the change feed, on the change stream and at a webhook receiver started here.`;

interface Options {
  url: string;
  sandboxUrl: string;
  sandboxKey: string;
  runs: number;
  username: string;
  password: string;
  feedUsername: string;
  feedPassword: string;
}

type Where = 'list' | 'feed' | 'stream' | 'webhook';
const PLACES: readonly Where[] = ['list', 'feed', 'stream', 'webhook'];
const GIVE_UP_MS = 15_000;
/** Within the per-user limit of 600 requests a minute: the list is polled as one user, the feed as another. */
const POLL_MS = 120;

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:3000' },
      'sandbox-url': { type: 'string', default: 'http://127.0.0.1:3100' },
      'sandbox-key': { type: 'string', default: 'demo-operations-key' },
      runs: { type: 'string', default: '50' },
      username: { type: 'string', default: 'acme' },
      password: { type: 'string', default: 'acme-demo-2026' },
      'feed-username': { type: 'string', default: 'operator' },
      'feed-password': { type: 'string', default: 'operator-demo-2026' },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) {
    console.error(USAGE);
    process.exit(0);
  }
  return {
    url: values.url,
    sandboxUrl: values['sandbox-url'],
    sandboxKey: values['sandbox-key'],
    runs: Number(values.runs),
    username: values.username,
    password: values.password,
    feedUsername: values['feed-username'],
    feedPassword: values['feed-password'],
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The moment each numero was first seen at each place. */
class Sightings {
  private readonly seen = new Map<string, number>();

  record(where: Where, numero: string): void {
    const key = `${where} ${numero}`;
    if (!this.seen.has(key)) this.seen.set(key, performance.now());
  }

  at(where: Where, numero: string): number | undefined {
    return this.seen.get(`${where} ${numero}`);
  }
}

async function main(): Promise<void> {
  const options = readOptions();
  const sightings = new Sightings();
  const auth = await signIn(options.url, options.username, options.password);
  const feedAuth = await signIn(options.url, options.feedUsername, options.feedPassword);

  const receiver = await startReceiver((numero) => sightings.record('webhook', numero));
  const webhook = await fetch(`${options.url}/api/webhooks`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url, description: 'bench:sandbox receiver' }),
  });
  const { id: webhookId } = (await webhook.json()) as { id: string };
  const stream = new AbortController();
  void readStream(`${options.url}/api/changes/stream`, auth, stream.signal, (numero) =>
    sightings.record('stream', numero),
  );
  let feedCursor = await feedEnd(options.url, feedAuth);

  const latencies: Record<Where, number[]> = { list: [], feed: [], stream: [], webhook: [] };
  try {
    for (let run = 0; run < options.runs; run++) {
      const started = performance.now();
      const created = await fetch(`${options.sandboxUrl}/control/processes`, {
        method: 'POST',
        headers: { 'x-api-key': options.sandboxKey, 'content-type': 'application/json' },
        body: JSON.stringify({ customer: options.username, type: 'IMPORT', mode: 'SEA' }),
      });
      const { numero } = (await created.json()) as { numero: string };
      while (PLACES.some((where) => sightings.at(where, numero) === undefined)) {
        if (performance.now() - started > GIVE_UP_MS)
          throw new Error(`${numero} not everywhere after ${GIVE_UP_MS} ms`);
        if (sightings.at('list', numero) === undefined && (await listed(options.url, auth, numero))) {
          sightings.record('list', numero);
        }
        if (sightings.at('feed', numero) === undefined) {
          const page = await fetch(`${options.url}/api/changes?after=${encodeURIComponent(feedCursor)}`, {
            headers: auth,
          });
          const body = (await page.json()) as { data: Array<{ numero: string }>; next: string };
          body.data.forEach((change) => sightings.record('feed', change.numero));
          feedCursor = body.next;
        }
        await sleep(POLL_MS);
      }
      for (const where of PLACES) latencies[where].push((sightings.at(where, numero) ?? NaN) - started);
    }
  } finally {
    stream.abort();
    await fetch(`${options.url}/api/webhooks/${webhookId}`, { method: 'DELETE', headers: auth });
    await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
  }

  const lines = [
    `control call -> visible, ${options.runs} runs (ms; polling every ${POLL_MS} ms)`,
    '| where | p50 | p90 | p99 | max |',
    '|---|---|---|---|---|',
  ];
  for (const where of PLACES) {
    const sorted = [...latencies[where]].sort((a, b) => a - b);
    const at = (q: number) =>
      Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN);
    lines.push(`| ${where} | ${at(0.5)} | ${at(0.9)} | ${at(0.99)} | ${at(1)} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function signIn(url: string, username: string, password: string): Promise<Record<string, string>> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Error(`${username} could not sign in: ${response.status}`);
  const { accessToken } = (await response.json()) as { accessToken: string };
  return { authorization: `Bearer ${accessToken}` };
}

async function listed(url: string, auth: Record<string, string>, numero: string): Promise<boolean> {
  const response = await fetch(`${url}/api/processes?sort=-updatedAt&pageSize=10`, { headers: auth });
  if (!response.ok) throw new Error(`the list answered ${response.status}`);
  const body = (await response.json()) as { data: Array<{ numero: string }> };
  return body.data.some((item) => item.numero === numero);
}

async function feedEnd(url: string, auth: Record<string, string>): Promise<string> {
  let cursor = '';
  for (;;) {
    const page = await fetch(
      `${url}/api/changes?limit=500${cursor === '' ? '' : `&after=${encodeURIComponent(cursor)}`}`,
      {
        headers: auth,
      },
    );
    if (!page.ok) throw new Error(`the feed answered ${page.status}`);
    const body = (await page.json()) as { next: string; hasMore: boolean };
    cursor = body.next;
    if (!body.hasMore) return cursor;
  }
}

/** Reads `numero` out of every change event of the stream. */
async function readStream(
  url: string,
  auth: Record<string, string>,
  signal: AbortSignal,
  onChange: (numero: string) => void,
): Promise<void> {
  const response = await fetch(url, { headers: { ...auth, accept: 'text/event-stream' }, signal });
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body ?? []) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
        buffer = buffer.slice(end + 2);
        if (data !== undefined) onChange((JSON.parse(data) as { numero?: string }).numero ?? '');
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

async function startReceiver(onChange: (numero: string) => void): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body) as { data?: { numero?: string } };
      if (message.data?.numero !== undefined) onChange(message.data.numero);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
