import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import supertest from 'supertest';
import { AppModule } from '../../src/app.module.js';
import { configureApp } from '../../src/app.setup.js';
import {
  ServiceExpressAdapter,
  type HttpServerTimeouts,
} from '../../src/common/http/http-server-settings.js';
import { PasswordHasher } from '../../src/auth/password-hasher.service.js';
import { UsersRepository } from '../../src/auth/users/users.repository.js';
import { AppConfig, loadAppConfig } from '../../src/config/app.config.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { customers } from '../../src/database/schema.js';
import { sql } from 'drizzle-orm';
import type { UserRole } from '../../src/domain/authenticated-user.js';
import { OpenApiConformance } from './openapi-conformance.js';
import { OperationsGateway } from '../../src/operations/operations.gateway.js';
import { CheapPasswordHasher } from '../../src/testing/cheap-password-hasher.js';
import { FakeOperationsGateway } from '../../src/testing/fake-operations.gateway.js';
import {
  APP_TEST_DATABASE_TARGET,
  createTestDatabase,
  type TestDatabase,
} from '../../src/testing/test-database.js';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface TestAppOptions {
  target?: 'pglite' | 'postgres';
  /**
   * Extra environment, as the service would read it. Without `OPERATIONS_BASE_URL` (a sandbox's,
   * see support/sandbox.ts) the operations system is an empty {@link FakeOperationsGateway}.
   */
  env?: Record<string, string>;
  /** Further provider overrides (fakes), after that default one. */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  /** Another instance of the service on that app's database (PostgreSQL); its owner drops it. */
  sharingDatabaseOf?: TestApp;
  /** Rewrites the PostgreSQL URL the service connects to (through a test proxy, say). */
  databaseUrl?: (url: string) => string;
  /** The HTTP server's limits, shorter than the service's to see them fire. */
  httpServerTimeouts?: HttpServerTimeouts;
}

export interface TestUser {
  username: string;
  password: string;
  role?: UserRole;
  customerIds?: string[];
  active?: boolean;
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

let committedDocument: OpenApiConformance | undefined;
const conformance = (): OpenApiConformance => (committedDocument ??= OpenApiConformance.committed());

/** The whole AppModule on a throwaway database, configured exactly as `main.ts` does. */
export class TestApp {
  private constructor(
    readonly app: NestExpressApplication,
    readonly config: AppConfig,
    private readonly testDatabase: TestDatabase,
  ) {}

  static async start(options: TestAppOptions = {}): Promise<TestApp> {
    const testDatabase =
      options.sharingDatabaseOf === undefined
        ? await createTestDatabase(options.target ?? APP_TEST_DATABASE_TARGET)
        : { options: options.sharingDatabaseOf.testDatabase.options, drop: async () => {} };
    const config = loadAppConfig({
      NODE_ENV: 'test',
      JWT_SECRET: TEST_JWT_SECRET,
      CORS_ORIGINS: 'https://portal.example.com',
      ...(testDatabase.options.url !== null && {
        DATABASE_URL: options.databaseUrl?.(testDatabase.options.url) ?? testDatabase.options.url,
      }),
      PGLITE_DIR: testDatabase.options.pgliteDir,
      // No background sync: tests run it when they want it.
      SYNC_INTERVAL_S: '0',
      // The suites run the sources, which a worker thread cannot load; on the test's own thread,
      // the deliverer is also theirs to drive (drain()).
      WEBHOOK_DELIVERY: 'in-process',
      ...options.env,
    });
    config.demoMode = false;
    let builder = Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(AppConfig)
      .useValue(config)
      .overrideProvider(PasswordHasher)
      .useValue(new CheapPasswordHasher());
    if (config.operations.baseUrl === null) {
      builder = builder.overrideProvider(OperationsGateway).useValue(new FakeOperationsGateway());
    }
    builder = options.override?.(builder) ?? builder;
    const moduleRef = await builder.compile();
    const app = moduleRef.createNestApplication<NestExpressApplication>(
      new ServiceExpressAdapter(options.httpServerTimeouts),
      { bodyParser: false, rawBody: true, logger: false },
    );
    configureApp(app);
    await app.init();
    return new TestApp(app, config, testDatabase);
  }

  /**
   * supertest on the app, with every answer checked against the committed `openapi.json`: an answer
   * that drifts from the document fails the test that received it, naming the operation and field.
   */
  get http(): ReturnType<typeof supertest> {
    const agent = supertest(this.app.getHttpServer());
    return new Proxy(agent, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof property !== 'string' || !HTTP_METHODS.has(property) || typeof value !== 'function') {
          return value;
        }
        return (url: string) =>
          (value as (url: string) => supertest.Test)
            .call(target, url)
            .expect((response) => conformance().assertConforms(property, url, response));
      },
    });
  }

  get database(): DatabaseService {
    return this.app.get(DatabaseService);
  }

  async addCustomers(...entries: Array<{ id: string; name: string }>): Promise<void> {
    await this.database.db.insert(customers).values(entries).onConflictDoNothing();
  }

  /**
   * Empties what sync wrote (processes, their change feed, the sync position), keeping users and
   * customers: the next test of a suite sharing this app starts from a first sync again. The feed's
   * sequence goes on, so no cursor of an earlier test ever names a later change.
   */
  async forgetSyncedData(): Promise<void> {
    // One statement at a time: run as one transaction (with DELETE or TRUNCATE alike), this left
    // PGlite's session reading no row at all from change_feed_page afterwards.
    for (const statement of [
      sql`DELETE FROM processes`,
      sql`DELETE FROM process_changes`,
      sql`DELETE FROM sync_state`,
      sql`UPDATE change_feed_head SET pruned_through = last_position`,
    ]) {
      await this.database.db.execute(statement);
    }
  }

  async addUser(user: TestUser): Promise<string> {
    const hasher = this.app.get(PasswordHasher);
    const users = this.app.get(UsersRepository);
    const role = user.role ?? 'customer';
    const created = await users.create({
      username: user.username,
      passwordHash: await hasher.hash(user.password),
      role,
      customerIds: user.customerIds ?? [],
    });
    if (user.active === false) await users.update(user.username, { active: false });
    return created.id;
  }

  /** Logs in through the API and returns the bearer token. */
  async login(username: string, password: string): Promise<string> {
    const response = await this.http.post('/api/auth/login').send({ username, password }).expect(200);
    return (response.body as { accessToken: string }).accessToken;
  }

  /**
   * Closes the app and drops its database. Once the server no longer listens, connections left
   * open are dropped: Node's fetch opens a spare one beside a streamed response and never sends a
   * request on it, which the server would otherwise wait for until its headers timeout.
   */
  async close(): Promise<void> {
    const server = this.app.getHttpServer();
    const sweep = setInterval(() => {
      if (!server.listening) server.closeAllConnections();
    }, 50);
    try {
      await this.app.close();
    } finally {
      clearInterval(sweep);
    }
    await this.testDatabase.drop();
  }
}
