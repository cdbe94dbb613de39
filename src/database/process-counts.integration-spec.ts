import { ChangeRecorder } from '../changes/change-recorder.js';
import { sql, type SQL } from 'drizzle-orm';
import { ProcessPageWriter } from '../sync/process-page.writer.js';
import { rowsOf } from './sql-rows.js';
import type { OperationsProcess } from '../operations/operations.types.js';
import { anOperationsProcess } from '../testing/operations-process.factory.js';
import { connectTestDatabase, TEST_DATABASE_TARGETS } from '../testing/test-database.js';
import type { DatabaseService } from './database.service.js';

type Totals = Record<string, number>;

/**
 * `process_counts`, `process_daily_counts` and `process_eta_daily_counts` must always equal
 * counting `processes`; as `{ "customer/STATUS": n }` and `{ "customer/STATUS/day": n }`.
 */
describe.each(TEST_DATABASE_TARGETS)(
  'process_counts, process_daily_counts and process_eta_daily_counts kept by triggers (%s)',
  (target) => {
    let database: DatabaseService;
    let dispose: () => Promise<void>;
    const writer = new ProcessPageWriter(new ChangeRecorder());

    const write = (processes: OperationsProcess[]) =>
      database.db.transaction((tx) => writer.write(tx, processes));

    const totals = async (query: SQL): Promise<Totals> => {
      const rows = await rowsOf<{ customer_id: string; status: string; day?: string; total: number }>(
        database.db,
        query,
      );
      return Object.fromEntries(
        rows.map((row) => [[row.customer_id, row.status, row.day].filter(Boolean).join('/'), row.total]),
      );
    };
    const kept = () =>
      totals(sql`SELECT customer_id, status, sum(total)::int AS total FROM process_counts
               GROUP BY customer_id, status HAVING sum(total) > 0`);
    const counted = () =>
      totals(
        sql`SELECT customer_id, status, count(*)::int AS total FROM processes GROUP BY customer_id, status`,
      );

    const keptDaily = () =>
      totals(
        sql`SELECT customer_id, status, day::text AS day, total FROM process_daily_counts WHERE total > 0`,
      );
    const countedDaily = () =>
      totals(sql`SELECT customer_id, status, (updated_at AT TIME ZONE 'UTC')::date::text AS day, count(*)::int AS total
               FROM processes GROUP BY 1, 2, 3`);
    const keptByEta = () =>
      totals(
        sql`SELECT customer_id, status, eta::text AS day, total FROM process_eta_daily_counts WHERE total <> 0`,
      );
    const countedByEta = () =>
      totals(sql`SELECT customer_id, status, eta::text AS day, count(*)::int AS total
               FROM processes WHERE eta IS NOT NULL GROUP BY 1, 2, 3`);
    /** Per customer, status, type, mode and channel, as `{ "customer/STATUS/TYPE/MODE/CHANNEL": n }`. */
    const keptByKey = () =>
      totals(sql`SELECT customer_id, concat_ws('/', status, type, mode, customs_channel) AS status, total
               FROM process_counts WHERE total > 0`);
    const countedByKey = () =>
      totals(sql`SELECT customer_id, concat_ws('/', status, type, mode, coalesce(customs_channel, 'NONE')) AS status,
                      count(*)::int AS total
               FROM processes GROUP BY 1, 2`);
    /** Both tables against counting `processes`. */
    const expectExact = async () => {
      expect(await kept()).toEqual(await counted());
      expect(await keptByKey()).toEqual(await countedByKey());
      expect(await keptDaily()).toEqual(await countedDaily());
      expect(await keptByEta()).toEqual(await countedByEta());
    };

    const numero = (index: number) => `IMP-2026-${String(index).padStart(6, '0')}`;
    const acme = { id: 'acme', name: 'ACME' };
    const globex = { id: 'globex', name: 'Globex' };

    beforeAll(async () => {
      ({ database, dispose } = await connectTestDatabase(target));
    });

    afterAll(() => dispose());

    // One database a target, emptied before each test: TRUNCATE empties the kept totals too (their
    // truncate triggers), which the last test checks.
    beforeEach(() => database.db.execute(sql`TRUNCATE processes CASCADE`));

    it('counts a page of new processes by customer and status', async () => {
      await write([
        anOperationsProcess({ numero: numero(1), customer: acme, status: 'OPEN' }),
        anOperationsProcess({ numero: numero(2), customer: acme, status: 'OPEN' }),
        anOperationsProcess({ numero: numero(3), customer: globex, status: 'BOOKED' }),
      ]);

      expect(await kept()).toEqual({ 'acme/OPEN': 2, 'globex/BOOKED': 1 });
      await expectExact();
    });

    it('moves a process between statuses and customers when sync updates it', async () => {
      await write([
        anOperationsProcess({
          numero: numero(1),
          customer: acme,
          status: 'OPEN',
          updatedAt: '2026-03-01T00:00:00Z',
        }),
        anOperationsProcess({
          numero: numero(2),
          customer: acme,
          status: 'OPEN',
          updatedAt: '2026-03-01T00:00:00Z',
        }),
      ]);

      await write([
        anOperationsProcess({
          numero: numero(1),
          customer: acme,
          status: 'BOOKED',
          updatedAt: '2026-03-02T00:00:00Z',
        }),
        anOperationsProcess({
          numero: numero(2),
          customer: globex,
          status: 'OPEN',
          updatedAt: '2026-03-02T00:00:00Z',
        }),
        anOperationsProcess({
          numero: numero(3),
          customer: acme,
          status: 'OPEN',
          updatedAt: '2026-03-02T00:00:00Z',
        }),
      ]);

      expect(await kept()).toEqual({ 'acme/BOOKED': 1, 'acme/OPEN': 1, 'globex/OPEN': 1 });
      expect(await keptDaily()).toEqual({
        'acme/BOOKED/2026-03-02': 1,
        'acme/OPEN/2026-03-02': 1,
        'globex/OPEN/2026-03-02': 1,
      });
      await expectExact();
    });

    it('leaves the totals alone when an update changes neither customer nor status', async () => {
      const process = anOperationsProcess({ numero: numero(1), customer: acme, status: 'IN_TRANSIT' });
      await write([process]);

      await write([{ ...process, eta: '2026-04-30', updatedAt: '2026-03-09T23:59:59Z' }]);

      expect(await kept()).toEqual({ 'acme/IN_TRANSIT': 1 });
      // A new updatedAt moves the process to another day, at the UTC day's last second.
      expect(await keptDaily()).toEqual({ 'acme/IN_TRANSIT/2026-03-09': 1 });
      await expectExact();
    });

    it('moves a process between ETA totals when its ETA slips, and counts none without an ETA', async () => {
      const process = anOperationsProcess({
        numero: numero(1),
        customer: acme,
        status: 'IN_TRANSIT',
        eta: '2026-04-10',
      });
      await write([process, anOperationsProcess({ numero: numero(2), customer: acme, eta: null })]);
      expect(await keptByEta()).toEqual({ 'acme/IN_TRANSIT/2026-04-10': 1 });

      await write([{ ...process, eta: '2026-04-13', updatedAt: '2026-03-09T00:00:00Z' }]);
      expect(await keptByEta()).toEqual({ 'acme/IN_TRANSIT/2026-04-13': 1 });

      await write([{ ...process, status: 'ARRIVED', eta: null, updatedAt: '2026-03-10T00:00:00Z' }]);
      expect(await keptByEta()).toEqual({});
      await expectExact();
    });

    it('moves a process between type, mode and customs channel totals, NONE standing for no channel', async () => {
      const process = anOperationsProcess({
        numero: numero(1),
        customer: acme,
        status: 'CUSTOMS_CLEARANCE',
        type: 'IMPORT',
        mode: 'SEA',
        customsChannel: null,
      });
      await write([process]);
      expect(await keptByKey()).toEqual({ 'acme/CUSTOMS_CLEARANCE/IMPORT/SEA/NONE': 1 });

      await write([{ ...process, mode: 'AIR', customsChannel: 'RED', updatedAt: '2026-03-09T00:00:00Z' }]);

      expect(await keptByKey()).toEqual({ 'acme/CUSTOMS_CLEARANCE/IMPORT/AIR/RED': 1 });
      await expectExact();
    });

    it('keeps nothing of a page whose transaction rolls back', async () => {
      await expect(
        database.db.transaction(async (tx) => {
          await writer.write(tx, [anOperationsProcess({ numero: numero(1), customer: acme })]);
          tx.rollback();
        }),
      ).rejects.toThrow();

      expect(await kept()).toEqual({});
      expect(await keptDaily()).toEqual({});
      expect(await keptByEta()).toEqual({});
    });

    it('follows deletes and truncation', async () => {
      await write(
        [1, 2, 3].map((index) =>
          anOperationsProcess({ numero: numero(index), customer: acme, status: 'OPEN' }),
        ),
      );

      await database.db.execute(sql`DELETE FROM processes WHERE numero = ${numero(2)}`);
      expect(await kept()).toEqual({ 'acme/OPEN': 2 });
      await expectExact();

      await database.db.execute(sql`TRUNCATE processes CASCADE`);
      expect(await kept()).toEqual({});
      expect(await counted()).toEqual({});
      expect(await keptDaily()).toEqual({});
      expect(await keptByEta()).toEqual({});
    });
  },
);
