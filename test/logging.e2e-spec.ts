import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DestinationStream } from 'pino';
import { LOG_DESTINATION } from '../src/logging/root-logger.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { closedPort } from '../src/testing/closed-port.js';
import { createEmptyTestDatabase, type TestDatabase } from '../src/testing/test-database.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';

const API_KEY = 'ops-api-key-4f1c9b7e2d';
const PASSWORD = 'Correct-Horse-Battery-81';
const WRONG_PASSWORD = 'Wrong-Guess-Password-17';

interface LogLine {
  level: string;
  msg?: string;
  requestId?: string;
  route?: string;
  userId?: string;
  durationMs?: number;
  res?: { statusCode: number };
  req?: { method: string; url: string };
}

/**
 * The whole stack with its logs captured at debug level and the HTTP adapter calling the
 * simulator with an API key: logins, lists and details, then nothing secret may be in the logs.
 */
describe('Logs', () => {
  const output: string[] = [];
  const destination: DestinationStream = { write: (line: string) => void output.push(line) };
  let sandbox: TestSandbox;
  let simulator: TestSandbox['server'];
  let testApp: TestApp;
  let userId: string;
  let token: string;

  const lines = (): LogLine[] => output.map((line) => JSON.parse(line) as LogLine);
  const requestLine = (requestId: string) =>
    lines().find((line) => line.requestId === requestId && line.res !== undefined);

  beforeAll(async () => {
    sandbox = await startTestSandbox({ apiKey: API_KEY });
    simulator = sandbox.server;
    testApp = await TestApp.start({
      env: { LOG_LEVEL: 'debug', OPERATIONS_BASE_URL: simulator.url, OPERATIONS_API_KEY: API_KEY },
      override: (builder) => builder.overrideProvider(LOG_DESTINATION).useValue(destination),
    });
    await syncNow(testApp);
    userId = await testApp.addUser({ username: 'acme', password: PASSWORD, customerIds: ['acme'] });
  });

  afterAll(async () => {
    await testApp.close();
    await simulator.close();
  });

  it('logs one line per request with its id, route, status, duration and user, and no secret', async () => {
    const failedLogin = await testApp.http
      .post('/api/auth/login')
      .send({ username: 'acme', password: WRONG_PASSWORD })
      .expect(401);
    token = await testApp.login('acme', PASSWORD);
    const auth = { Authorization: `Bearer ${token}`, Cookie: `session=${token}`, 'X-Api-Key': API_KEY };

    const list = await testApp.http.get('/api/processes?pageSize=2').set(auth).expect(200);
    const numeros = (list.body.data as Array<{ numero: string }>).map((item) => item.numero);
    await testApp.http.get(`/api/processes?access_token=${token}`).set(auth).expect(400);
    const detail = await testApp.http.get(`/api/processes/${numeros[0]}`).set(auth).expect(200);
    simulator.setFaults({ outage: 'unavailable' });
    const unavailable = await testApp.http.get(`/api/processes/${numeros[1]}`).set(auth).expect(503);
    simulator.resetFaults();

    const text = output.join('');
    for (const secret of [PASSWORD, WRONG_PASSWORD, API_KEY, token, ...token.split('.')]) {
      expect(text).not.toContain(secret);
    }

    expect(requestLine(String(detail.headers['x-request-id']))).toMatchObject({
      level: 'info',
      msg: 'request completed',
      route: '/api/processes/:numero',
      res: { statusCode: 200 },
      req: { method: 'GET', url: `/api/processes/${numeros[0]}` },
      userId,
      durationMs: expect.any(Number),
    });
    const login = requestLine(String(failedLogin.headers['x-request-id']));
    expect(login).toMatchObject({ route: '/api/auth/login', res: { statusCode: 401 } });
    expect(login?.userId).toBeUndefined();
    expect(requestLine(String(list.headers['x-request-id']))).toMatchObject({
      route: '/api/processes',
      userId,
    });

    // Application logs made while a request is handled carry its id too (here: the 503's warning).
    const failed = lines().filter((line) => line.requestId === String(unavailable.headers['x-request-id']));
    expect(failed.some((line) => line.level === 'warn' && line.res === undefined)).toBe(true);
    expect(requestLine(String(unavailable.headers['x-request-id']))).toMatchObject({
      level: 'error',
      res: { statusCode: 503 },
    });
  });

  it('keeps refresh tokens, client secrets, client tokens and the token endpoint’s form out of the logs', async () => {
    const signIn = (await testApp.http.post('/api/auth/login').send({ username: 'acme', password: PASSWORD }))
      .body as {
      accessToken: string;
      refreshToken: string;
    };
    const refreshed = await testApp.http
      .post('/api/auth/refresh')
      .send({ refreshToken: signIn.refreshToken })
      .expect(200);
    const user = { Authorization: `Bearer ${signIn.accessToken}` };
    const client = (
      await testApp.http
        .post('/api/clients')
        .set(user)
        .send({ name: 'ERP', scopes: ['processes:read'] })
        .expect(201)
    ).body as { id: string; clientId: string; clientSecret: string };
    const rotated = (await testApp.http.post(`/api/clients/${client.id}/secret`).set(user).expect(200))
      .body as {
      clientSecret: string;
    };
    const basic = `Basic ${Buffer.from(`${client.clientId}:${rotated.clientSecret}`).toString('base64')}`;
    const issued = await testApp.http
      .post('/api/oauth/token')
      .set('Authorization', basic)
      .type('form')
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    const wrongSecret = `${client.clientSecret}-wrong`;
    await testApp.http
      .post('/api/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: wrongSecret })
      .expect(401);
    const clientToken = issued.body.access_token as string;
    await testApp.http.get('/api/processes').set('Authorization', `Bearer ${clientToken}`).expect(200);

    const text = output.join('');
    for (const secret of [
      signIn.refreshToken,
      refreshed.body.refreshToken as string,
      refreshed.body.accessToken as string,
      client.clientSecret,
      rotated.clientSecret,
      wrongSecret,
      basic.slice('Basic '.length),
      clientToken,
      ...clientToken.split('.'),
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(requestLine(String(issued.headers['x-request-id']))).toMatchObject({
      route: '/api/oauth/token',
      res: { statusCode: 200 },
    });
  });

  it('logs a request refused before routing, with the id it answered with', async () => {
    const response = await testApp.http
      .post('/api/auth/login')
      .set('Content-Type', 'application/json')
      .send(`{"username":"acme","password":"${PASSWORD}"`)
      .expect(400);
    expect(requestLine(String(response.headers['x-request-id']))).toMatchObject({
      route: '<unmatched>',
      res: { statusCode: 400 },
    });
    expect(output.join('')).not.toContain(PASSWORD);
  });
});

/** The built service (`node dist/main.js`) failing to start, as an orchestrator's log collector sees it. */
describe('Start-up failures', () => {
  const ROOT = fileURLToPath(new URL('..', import.meta.url));
  let unmigrated: TestDatabase;

  beforeAll(async () => {
    // Builds dist/ only when it is missing or older than the sources (as `npm start` does).
    execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], {
      cwd: ROOT,
      stdio: 'pipe',
      timeout: 180_000,
    });
    // Here, not in the test: the first empty database on a machine runs an initdb.
    unmigrated = await createEmptyTestDatabase('pglite');
  }, 200_000);

  afterAll(() => unmigrated?.drop());

  /** Runs the service with only this environment; its exit code and every line it wrote. */
  function start(env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['dist/main.js'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, NODE_ENV: 'production', PORT: '0', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
      child.once('error', reject);
      child.once('close', (code) =>
        resolve({ code, lines: Buffer.concat(output).toString().split('\n').filter(Boolean) }),
      );
    });
  }

  const errorLines = (lines: string[]) =>
    lines
      .map((line) => JSON.parse(line) as { level: string; msg: string; err?: { stack?: string } })
      .filter((line) => line.level === 'error');

  it('logs invalid configuration as one JSON line naming the variable, without a stack', async () => {
    const { code, lines } = await start({ LOG_LEVEL: 'info' });

    expect(code).toBe(1);
    const errors = errorLines(lines);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toContain('JWT_SECRET');
    expect(errors[0]?.err).toBeDefined();
    expect(errors[0]?.err?.stack).toBeUndefined();
  });

  it('refuses a database not migrated yet, saying what to run', async () => {
    const { code, lines } = await start({
      JWT_SECRET: 'startup-test-secret-that-is-long-enough-0123456789',
      OPERATIONS_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
      PGLITE_DIR: unmigrated.options.pgliteDir,
    });

    expect(code).toBe(1);
    const errors = errorLines(lines);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toContain('the database is not migrated');
    expect(errors[0]?.msg).toContain('npm run migrate');
  });

  it('logs a database out of reach as one JSON line', async () => {
    const { code, lines } = await start({
      JWT_SECRET: 'startup-test-secret-that-is-long-enough-0123456789',
      OPERATIONS_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`,
    });

    expect(code).toBe(1);
    const errors = errorLines(lines);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toContain('ECONNREFUSED');
  });
});
