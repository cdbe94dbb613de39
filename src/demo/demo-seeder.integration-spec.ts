import { Logger } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { sql } from 'drizzle-orm';
import { UsersRepository } from '../auth/users/users.repository.js';
import { PasswordHasher } from '../auth/password-hasher.service.js';
import { AppConfig, loadAppConfig } from '../config/app.config.js';
import { ConfigModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { DatabaseService } from '../database/database.service.js';
import { rowsOf } from '../database/sql-rows.js';
import { OperationsGateway } from '../operations/operations.gateway.js';
import { SyncService } from '../sync/sync.service.js';
import { FakeOperationsGateway } from '../testing/fake-operations.gateway.js';
import { anEvent, anOperationsProcess } from '../testing/operations-process.factory.js';
import {
  createEmptyTestDatabase,
  createTestDatabase,
  EMPTY_TEMPLATE_TIMEOUT_MS,
  type TestDatabase,
} from '../testing/test-database.js';
import { DemoModule } from './demo.module.js';
import { DemoSeeder } from './demo-seeder.service.js';
import { DEMO_USERS } from './demo-users.js';
import { InitialDataState } from './initial-data.state.js';

/** The operations system's data in demo mode (the sandbox's, whose own tests check its variety). */
const upstream = new FakeOperationsGateway().putAll(
  anOperationsProcess({ numero: 'IMP-2026-000001', status: 'IN_TRANSIT', containers: ['MSCU1234565'] }),
  anOperationsProcess({
    numero: 'EXP-2026-000002',
    type: 'EXPORT',
    mode: 'AIR',
    status: 'DELIVERED',
    containers: [],
    customer: { id: 'globex', name: 'Globex' },
    events: [anEvent({ id: 'evt-1' }), anEvent({ id: 'evt-2', code: 'DELIVERED' })],
  }),
);

async function startDemoModules(demoMode: boolean, pgliteDir: string): Promise<TestingModule> {
  const config = loadAppConfig({ NODE_ENV: 'test', PGLITE_DIR: pgliteDir, SYNC_INTERVAL_S: '0' });
  config.demoMode = demoMode;
  const moduleRef = await Test.createTestingModule({ imports: [ConfigModule, DatabaseModule, DemoModule] })
    .overrideProvider(AppConfig)
    .useValue(config)
    .overrideProvider(OperationsGateway)
    .useValue(upstream)
    .compile();
  return moduleRef.init();
}

async function countsOf(database: DatabaseService) {
  const [row] = await rowsOf<Record<string, number | string[]>>(
    database.db,
    sql`SELECT (SELECT count(*)::int FROM customers) AS customers,
               (SELECT count(*)::int FROM processes) AS processes,
               (SELECT count(*)::int FROM process_containers) AS containers,
               (SELECT count(*)::int FROM follow_up_events) AS events,
               (SELECT array_agg(DISTINCT status ORDER BY status) FROM processes) AS statuses,
               (SELECT array_agg(DISTINCT type ORDER BY type) FROM processes) AS types,
               (SELECT array_agg(DISTINCT mode ORDER BY mode) FROM processes) AS modes`,
  );
  return row!;
}

describe(DemoSeeder.name, () => {
  beforeAll(() => {
    Logger.overrideLogger(false);
  });

  describe('in demo mode', () => {
    let moduleRef: TestingModule;
    let testDatabase: TestDatabase;

    beforeAll(async () => {
      // As `npm start` finds it on a fresh machine: a database with nothing in it.
      testDatabase = await createEmptyTestDatabase('pglite');
      moduleRef = await startDemoModules(true, testDatabase.options.pgliteDir);
      expect(moduleRef.get(InitialDataState).isReady).toBe(false);
      await moduleRef.get(InitialDataState).whenReady();
    }, EMPTY_TEMPLATE_TIMEOUT_MS);

    afterAll(async () => {
      await moduleRef.close();
      await testDatabase.drop();
    });

    it("syncs the operations system's data before it is ready: customers, processes, containers, events", async () => {
      const counts = await countsOf(moduleRef.get(DatabaseService));

      expect(counts).toMatchObject({
        customers: 2,
        processes: 2,
        containers: 1,
        events: upstream.all().reduce((sum, process) => sum + process.events.length, 0),
        statuses: ['DELIVERED', 'IN_TRANSIT'],
        types: ['EXPORT', 'IMPORT'],
        modes: ['AIR', 'SEA'],
      });
      expect(moduleRef.get(SyncService).getLastOutcome()).toMatchObject({ status: 'succeeded' });
    });

    it('creates the three demo users with their passwords, roles and customers', async () => {
      const users = moduleRef.get(UsersRepository);
      const hasher = moduleRef.get(PasswordHasher);
      for (const demo of DEMO_USERS) {
        const user = await users.findByUsername(demo.username);
        expect(user).toMatchObject({ role: demo.role, customerIds: demo.customerIds, active: true });
        expect(await hasher.verify(user!.passwordHash, demo.password)).toBe(true);
      }
    });
  });

  describe('outside demo mode', () => {
    it('is ready at once and neither syncs nor creates users', async () => {
      // Outside demo mode the database is migrated beforehand, by `npm run migrate`.
      const testDatabase = await createTestDatabase('pglite');
      const moduleRef = await startDemoModules(false, testDatabase.options.pgliteDir);
      try {
        expect(moduleRef.get(InitialDataState).isReady).toBe(true);
        await moduleRef.get(DemoSeeder).whenSeeded();
        expect(moduleRef.get(SyncService).getLastOutcome()).toBeNull();
        expect(await moduleRef.get(UsersRepository).list()).toEqual([]);
        expect(await countsOf(moduleRef.get(DatabaseService))).toMatchObject({ processes: 0 });
      } finally {
        await moduleRef.close();
        await testDatabase.drop();
      }
    });
  });
});
