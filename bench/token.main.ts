import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { PasswordHasher } from '../src/auth/password-hasher.service.js';
import { UsersRepository } from '../src/auth/users/users.repository.js';
import { DatabaseService } from '../src/database/database.service.js';
import { clientApplications } from '../src/database/schema.js';
import { eq } from 'drizzle-orm';
import { BENCH_USERS } from './dataset.js';
import { startDriver } from './driver-process.js';
import { cpuPerRequest, median } from './report.js';
import { login, startService, stopService } from './service-process.js';

const USAGE = `Usage: npm run bench:token -- --database-url postgres://... [--seconds 10] [--connections 16]

Boots the service (its own build, as npm run bench does; it migrates the database), registers a
client application of bench-acme (created when missing; a loaded dataset, npm run bench:load, gives
its list real pages) and measures, with the harness's driver (autocannon, its own process):

  token   POST /api/oauth/token (client_secret_basic, a valid client) at --connections for --seconds,
          after a warm-up: requests/s, p50/p99 and the service's CPU per request.
  list    GET /api/processes with the client's token and with bench-acme's own token, interleaved
          (user, client, user, client), 4 connections: the CPU per request of each, as medians.

The client applications it registered are deleted afterwards.`;

const WARMUP_SECONDS = 5;
const LIST_CONNECTIONS = 4;
const LIST_PAIRS = 2;

interface Options {
  url: string;
  seconds: number;
  connections: number;
}

function parseOptions(): Options | null {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      seconds: { type: 'string', default: '10' },
      connections: { type: 'string', default: '16' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return null;
  }
  if (values['database-url'] === undefined) throw new RangeError('--database-url is required');
  return {
    url: values['database-url'],
    seconds: Number(values.seconds),
    connections: Number(values.connections),
  };
}

const log = (message: string): void => void process.stdout.write(`${message}\n`);

async function main(): Promise<void> {
  const options = parseOptions();
  if (options === null) return;
  const database = await DatabaseService.connect({ url: options.url, pgliteDir: '' });
  await database.migrate();
  const owner = await ensureOwner(database);
  const service = await startService({
    url: options.url,
    pgliteDir: null,
    operationsUrl: 'http://127.0.0.1:9',
  });
  const driver = startDriver();
  try {
    const { largeCustomer } = BENCH_USERS;
    const userToken = await login(service.url, largeCustomer.username, largeCustomer.password);
    const client = await register(service.url, userToken);
    const basic = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
    const tokenRun = (durationSeconds: number) =>
      driver.run({
        url: service.url,
        paths: ['/api/oauth/token'],
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
        connections: options.connections,
        durationSeconds,
        serverPid: service.child.pid!,
      });
    await tokenRun(WARMUP_SECONDS);
    const token = await tokenRun(options.seconds);
    log(
      `token endpoint, ${options.connections} connections, ${options.seconds} s: ${token.rps.toFixed(0)} req/s, ` +
        `p50 ${token.p50} ms, p99 ${token.p99} ms, ${cpuPerRequest(token).toFixed(3)} ms CPU a request, ` +
        `${token.errors} errors`,
    );

    const clientToken = await issue(service.url, basic);
    const listRun = (bearer: string) =>
      driver.run({
        url: service.url,
        paths: ['/api/processes'],
        headers: { authorization: `Bearer ${bearer}` },
        connections: LIST_CONNECTIONS,
        durationSeconds: options.seconds,
        serverPid: service.child.pid!,
      });
    await listRun(userToken);
    const cpu = { user: [] as number[], client: [] as number[] };
    for (let pair = 0; pair < LIST_PAIRS; pair++) {
      cpu.user.push(cpuPerRequest(await listRun(userToken)));
      cpu.client.push(cpuPerRequest(await listRun(clientToken)));
    }
    const [user, byClient] = [median(cpu.user), median(cpu.client)];
    log(
      `list, ${LIST_CONNECTIONS} connections, ${LIST_PAIRS} interleaved pairs: user token ${user.toFixed(3)} ms CPU ` +
        `a request, client token ${byClient.toFixed(3)} ms (${((byClient / user) * 100).toFixed(0)}% of the user's)`,
    );
  } finally {
    driver.child.kill();
    await stopService(service.child);
    await database.db.delete(clientApplications).where(eq(clientApplications.ownerId, owner));
    await database.close();
  }
}

/** bench-acme, as `npm run bench:load` creates it, or created here (then its list is empty). */
async function ensureOwner(database: DatabaseService): Promise<string> {
  const { largeCustomer } = BENCH_USERS;
  const repository = new UsersRepository(database);
  const known = await repository.findByUsername(largeCustomer.username);
  if (known !== null) return known.id;
  const created = await repository.create({
    username: largeCustomer.username,
    passwordHash: await new PasswordHasher().hash(largeCustomer.password),
    role: largeCustomer.role,
    customerIds: [],
  });
  return created.id;
}

async function register(url: string, userToken: string): Promise<{ clientId: string; clientSecret: string }> {
  const response = await fetch(`${url}/api/clients`, {
    method: 'POST',
    headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', scopes: ['processes:read'] }),
  });
  if (response.status !== 201)
    throw new Error(`register a client: ${response.status} ${await response.text()}`);
  return (await response.json()) as { clientId: string; clientSecret: string };
}

async function issue(url: string, basic: string): Promise<string> {
  const response = await fetch(`${url}/api/oauth/token`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
