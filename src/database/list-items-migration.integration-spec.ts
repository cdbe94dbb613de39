import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle, type PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { renderMissingListItems } from '../sync/list-items-backfill.js';
import { migrationsBefore } from '../testing/migrations-before.js';
import {
  createEmptyTestDatabase,
  EMPTY_TEMPLATE_TIMEOUT_MS,
  prepareEmptyTestDatabases,
} from '../testing/test-database.js';
import { LIST_ITEM_SHAPE } from './schema/process-list-items.js';
import * as schema from './schema.js';
import { rowsOf } from './sql-rows.js';

const MIGRATIONS = resolve(import.meta.dirname, '../../migrations');
const LIST_ITEMS_MIGRATION = '0015_process_list_items';
const ETA_HISTORY_MIGRATION = '0018_eta_history';
const LIST_ITEM_SHAPE_MIGRATION = '0019_list_item_shape';

/** Runs `work` on a PGlite database migrated up to just before `tag`, removed afterwards. */
async function onDatabaseBefore(
  tag: string,
  work: (db: PgliteDatabase<typeof schema>) => Promise<void>,
): Promise<void> {
  const earlier = migrationsBefore(tag);
  const empty = await createEmptyTestDatabase('pglite');
  const client = await PGlite.create(empty.options.pgliteDir);
  try {
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder: earlier });
    await work(db);
  } finally {
    await client.close();
    await empty.drop();
    rmSync(earlier, { recursive: true, force: true });
  }
}

beforeAll(() => prepareEmptyTestDatabases('pglite'), EMPTY_TEMPLATE_TIMEOUT_MS);

describe('migration 0015 (process list items)', () => {
  it('leaves the list item of every process stored before it to the backfill, which renders it as the API sends it', async () => {
    await onDatabaseBefore(LIST_ITEMS_MIGRATION, async (db) => {
      await db.execute(sql`INSERT INTO customers (id, name) VALUES ('acme', 'ACME "Brasil"')`);
      await db.execute(sql`
        INSERT INTO processes (numero, customer_id, status, type, mode, origin_code, origin_name,
                               destination_code, destination_name, eta, customs_channel, follow_count, updated_at)
        VALUES ('IMP-2026-000001', 'acme', 'IN_TRANSIT', 'IMPORT', 'SEA', 'CNSHA', 'Shanghai', 'BRSSZ', 'Santos',
                '2026-04-20', 'GREEN', 2, '2026-04-02T08:30:15Z'),
               ('IMP-2026-000002', 'acme', 'OPEN', 'IMPORT', 'AIR', 'CNSHA', 'Shanghai', 'BRGRU', 'Guarulhos',
                NULL, NULL, 0, '2026-04-03T00:00:00Z')`);
      await db.execute(sql`
        INSERT INTO process_containers (process_numero, container_number, position)
        VALUES ('IMP-2026-000001', 'TGHU7654320', 1), ('IMP-2026-000001', 'MSCU1234565', 0)`);
      await db.execute(sql`
        INSERT INTO follow_up_events (process_numero, id, code, description, occurred_at, location_code, location_name)
        VALUES ('IMP-2026-000001', 'b', 'NOTE', 'Second', '2026-04-01T10:00:00Z', NULL, NULL),
               ('IMP-2026-000001', 'a', 'PROCESS_OPENED', 'First', '2026-04-01T10:00:00Z', 'CNSHA', 'Shanghai')`);

      await migrate(db, { migrationsFolder: MIGRATIONS });
      // The migration renders nothing itself: the background backfill does, a batch at a time.
      const listed = () => rowsOf<{ numero: string }>(db, sql`SELECT numero FROM process_list_items`);
      expect(await listed()).toEqual([]);
      expect(await renderMissingListItems(db, '', 1)).toEqual({ count: 1, last: 'IMP-2026-000001' });
      expect(await renderMissingListItems(db, 'IMP-2026-000001', 1)).toEqual({
        count: 1,
        last: 'IMP-2026-000002',
      });
      expect(await renderMissingListItems(db, 'IMP-2026-000002', 1)).toEqual({ count: 0, last: null });

      const items = await rowsOf<{ numero: string; body: string }>(
        db,
        sql`SELECT numero, body FROM process_list_items ORDER BY numero`,
      );
      const opened = {
        id: 'a',
        code: 'PROCESS_OPENED',
        description: 'First',
        occurredAt: '2026-04-01T10:00:00Z',
        location: { code: 'CNSHA', name: 'Shanghai' },
      };
      const note = {
        id: 'b',
        code: 'NOTE',
        description: 'Second',
        occurredAt: '2026-04-01T10:00:00Z',
        location: null,
      };
      const summary = (overrides: object) => ({
        type: 'IMPORT',
        mode: 'SEA',
        customer: { id: 'acme', name: 'ACME "Brasil"' },
        customerReference: null,
        origin: { code: 'CNSHA', name: 'Shanghai' },
        destination: { code: 'BRSSZ', name: 'Santos' },
        shipmentDate: null,
        eta: '2026-04-20',
        originalEta: '2026-04-20',
        etaDelayDays: 0,
        arrivalDate: null,
        containers: ['MSCU1234565', 'TGHU7654320'],
        customsChannel: 'GREEN',
        freeTimeEndsAt: null,
        followCount: 2,
        ...overrides,
      });
      expect(items).toEqual([
        {
          numero: 'IMP-2026-000001',
          body: JSON.stringify({
            numero: 'IMP-2026-000001',
            status: 'IN_TRANSIT',
            updatedAt: '2026-04-02T08:30:15Z',
            summary: summary({}),
            lastFollow: note,
            follow: [opened, note],
          }),
        },
        {
          numero: 'IMP-2026-000002',
          body: JSON.stringify({
            numero: 'IMP-2026-000002',
            status: 'OPEN',
            updatedAt: '2026-04-03T00:00:00Z',
            summary: summary({
              mode: 'AIR',
              destination: { code: 'BRGRU', name: 'Guarulhos' },
              eta: null,
              originalEta: null,
              etaDelayDays: null,
              containers: [],
              customsChannel: null,
              followCount: 0,
            }),
            lastFollow: null,
            follow: [],
          }),
        },
      ]);
    });
  });
});

describe('migration 0018 (ETA history)', () => {
  it('starts each history from the stored ETA, invents none, and keeps the items stored before it for the previous release until the backfill renders them with the original ETA', async () => {
    await onDatabaseBefore(ETA_HISTORY_MIGRATION, async (db) => {
      await db.execute(sql`INSERT INTO customers (id, name) VALUES ('acme', 'ACME')`);
      await db.execute(sql`
        INSERT INTO processes (numero, customer_id, status, type, mode, origin_code, origin_name,
                               destination_code, destination_name, eta, follow_count, updated_at, synced_at)
        VALUES ('IMP-2026-000001', 'acme', 'IN_TRANSIT', 'IMPORT', 'SEA', 'CNSHA', 'Shanghai', 'BRSSZ', 'Santos',
                '2026-04-20', 0, '2026-04-02T08:30:15Z', '2026-04-02T08:31:00Z'),
               ('IMP-2026-000002', 'acme', 'OPEN', 'IMPORT', 'AIR', 'CNSHA', 'Shanghai', 'BRGRU', 'Guarulhos',
                NULL, 0, '2026-04-03T00:00:00Z', '2026-04-03T00:01:00Z')`);
      // The items as the previous release's sync rendered them, which it reads with an inner join.
      await db.execute(sql`
        INSERT INTO process_list_items (numero, body)
        SELECT p.numero, process_list_item(p, c) FROM processes p JOIN customers c ON c.id = p.customer_id`);
      const storedBefore = await rowsOf<{ numero: string; body: string }>(
        db,
        sql`SELECT numero, body FROM process_list_items ORDER BY numero`,
      );

      await migrate(db, { migrationsFolder: MIGRATIONS });
      const storedAfter = await rowsOf<{ numero: string; body: string }>(
        db,
        sql`SELECT numero, body FROM process_list_items ORDER BY numero`,
      );

      const history = await rowsOf<{ numero: string; eta: string; recordedAt: string }>(
        db,
        sql`SELECT process_numero AS numero, eta::text AS eta,
                   to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt"
              FROM process_eta_history ORDER BY id`,
      );
      const rendered = await renderMissingListItems(db, '', 1000);
      const summaries = await rowsOf<{ summary: unknown }>(
        db,
        sql`SELECT (body::json -> 'summary')::jsonb - 'customer' - 'origin' - 'destination' AS summary
              FROM process_list_items ORDER BY numero`,
      );
      expect(storedBefore).toHaveLength(2);
      expect(storedAfter).toEqual(storedBefore);
      expect(rendered).toEqual({ count: 2, last: 'IMP-2026-000002' });
      expect(history).toEqual([
        { numero: 'IMP-2026-000001', eta: '2026-04-20', recordedAt: '2026-04-02T08:31:00Z' },
      ]);
      expect(summaries.map((row) => row.summary)).toMatchObject([
        { eta: '2026-04-20', originalEta: '2026-04-20', etaDelayDays: 0 },
        { eta: null, originalEta: null, etaDelayDays: null },
      ]);
    });
  });
});

describe('migration 0019 (list item shape)', () => {
  it('gives a database whose 0018 added no shape one, its items read as the old shape and new ones the current', async () => {
    await onDatabaseBefore(LIST_ITEM_SHAPE_MIGRATION, async (db) => {
      // As 0018 left a database before it kept the items: items, and no shape.
      await db.execute(sql`ALTER TABLE process_list_items DROP COLUMN shape`);
      await db.execute(sql`INSERT INTO customers (id, name) VALUES ('acme', 'ACME')`);
      await db.execute(sql`
        INSERT INTO processes (numero, customer_id, status, type, mode, origin_code, origin_name,
                               destination_code, destination_name, follow_count, updated_at)
        VALUES ('IMP-1', 'acme', 'OPEN', 'IMPORT', 'SEA', 'CNSHA', 'Shanghai', 'BRSSZ', 'Santos', 0, now()),
               ('IMP-2', 'acme', 'OPEN', 'IMPORT', 'SEA', 'CNSHA', 'Shanghai', 'BRSSZ', 'Santos', 0, now())`);
      await db.execute(sql`
        INSERT INTO process_list_items (numero, body)
        SELECT p.numero, process_list_item(p, c) FROM processes p JOIN customers c ON c.id = p.customer_id
         WHERE p.numero = 'IMP-1'`);

      await migrate(db, { migrationsFolder: MIGRATIONS });
      await renderMissingListItems(db, 'IMP-1', 1);

      const shapes = await rowsOf<{ numero: string; shape: number }>(
        db,
        sql`SELECT numero, shape FROM process_list_items ORDER BY numero`,
      );
      expect(shapes).toEqual([
        { numero: 'IMP-1', shape: 15 },
        { numero: 'IMP-2', shape: LIST_ITEM_SHAPE },
      ]);
    });
  });
});
