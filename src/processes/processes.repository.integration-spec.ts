import { ChangeRecorder } from '../changes/change-recorder.js';
import { sql } from 'drizzle-orm';
import type { DatabaseService } from '../database/database.service.js';
import { LIST_ITEM_SHAPE } from '../database/schema.js';
import { rowsOf } from '../database/sql-rows.js';
import { renderMissingListItems } from '../sync/list-items-backfill.js';
import { ProcessPageWriter } from '../sync/process-page.writer.js';
import { aListCriteria } from '../testing/list-criteria.factory.js';
import { anEvent, anOperationsProcess } from '../testing/operations-process.factory.js';
import { connectTestDatabase, TEST_DATABASE_TARGETS } from '../testing/test-database.js';
import { ProcessesRepository } from './processes.repository.js';

const criteria = aListCriteria;

describe.each(TEST_DATABASE_TARGETS)(`${ProcessesRepository.name} (%s)`, (target) => {
  const statements: string[] = [];
  let database: DatabaseService;
  let dispose: () => Promise<void>;
  let sut: ProcessesRepository;

  beforeAll(async () => {
    ({ database, dispose } = await connectTestDatabase(target, {
      queryLogger: { logQuery: (query) => statements.push(query) },
    }));
    const processes = Array.from({ length: 120 }, (_, index) =>
      anOperationsProcess({
        numero: `IMP-2026-${String(index).padStart(6, '0')}`,
        customer: index < 100 ? { id: 'acme', name: 'ACME' } : { id: 'globex', name: 'Globex' },
        updatedAt: `2026-03-01T${String(index % 24).padStart(2, '0')}:00:00Z`,
      }),
    );
    await database.db.transaction((tx) => new ProcessPageWriter(new ChangeRecorder()).write(tx, processes));
    sut = new ProcessesRepository(database);
  });

  afterAll(() => dispose());

  beforeEach(() => {
    statements.length = 0;
  });

  it.each([1, 5, 20, 100])(
    'lists a page of %i with two statements, events and containers included',
    async (pageSize) => {
      const page = await sut.list(criteria({ pageSize }), { customerIds: ['acme'] });

      const items = page.items.parse();
      expect(items).toHaveLength(pageSize);
      expect(page.totalItems).toBe(100);
      expect(items.every((item) => item.follow.length === 2 && item.summary.containers.length === 1)).toBe(
        true,
      );
      expect(statements).toHaveLength(2);
    },
  );

  it('answers a page past the last with the count alone', async () => {
    const page = await sut.list(criteria({ page: 9, pageSize: 20 }), { customerIds: ['acme'] });

    expect(page.items.parse()).toEqual([]);
    expect(page.totalItems).toBe(100);
    expect(statements).toHaveLength(1);
  });

  it('applies visibility in the statements themselves', async () => {
    const none = await sut.list(criteria(), { customerIds: [] });
    const globex = await sut.list(criteria({ pageSize: 100 }), { customerIds: ['globex'] });
    const staff = await sut.list(criteria({ pageSize: 1 }), { customerIds: null });

    expect(none.totalItems).toBe(0);
    expect(globex.totalItems).toBe(20);
    expect(globex.items.parse().every((item) => item.summary.customer.id === 'globex')).toBe(true);
    expect(staff.totalItems).toBe(120);
    // none: its count; globex: its count and page; staff: neither.
    expect(statements.filter((statement) => /"customer_id" = (ANY\()?\$/.test(statement))).toHaveLength(3);
  });

  it('binds every value, so lists of one shape run the same statements', async () => {
    await sut.list(criteria({ pageSize: 5, statuses: ['OPEN', 'IN_TRANSIT'] }), {
      customerIds: ['acme', 'initech'],
    });
    const first = statements.splice(0);
    await sut.list(criteria({ page: 2, pageSize: 7, statuses: ['BOOKED', 'IN_TRANSIT', 'ARRIVED'] }), {
      customerIds: ['globex', 'umbrella', 'hooli'],
    });

    expect(statements).toEqual(first);
    expect(first.join()).not.toMatch(/acme|IN_TRANSIT/);
  });

  it('matches a single customer and status by equality, many by array', async () => {
    await sut.list(criteria({ statuses: ['IN_TRANSIT'], updatedFrom: new Date(0) }), {
      customerIds: ['acme'],
    });
    const single = statements.splice(0).join();
    await sut.list(criteria({ statuses: ['IN_TRANSIT', 'OPEN'], updatedFrom: new Date(0) }), {
      customerIds: ['acme', 'globex'],
    });
    const many = statements.join();

    expect(single).toMatch(/"customer_id" = \$\d/);
    expect(single).toMatch(/"status" = \$\d/);
    expect(single).not.toContain('ANY(');
    expect(many).toMatch(/"customer_id" = ANY\(\$\d+\)/);
    expect(many).toMatch(/"status" = ANY\(\$\d+\)/);
  });

  it('totals status filters from the kept counts, updated ranges from the daily ones, the rest by counting', async () => {
    const visibility = { customerIds: ['acme'] };
    const inTransit = await sut.list(criteria({ statuses: ['IN_TRANSIT'] }), visibility);
    const open = await sut.list(criteria({ statuses: ['OPEN', 'BOOKED'] }), visibility);
    const [countsStatement] = statements.splice(0);
    const updatedLate = await sut.list(
      criteria({ statuses: ['IN_TRANSIT'], updatedFrom: new Date('2026-03-01T12:00:00Z') }),
      visibility,
    );
    const [dailyCountsStatement] = statements.splice(0);
    const shippedLate = await sut.list(criteria({ shipmentFrom: '2026-02-20' }), visibility);
    const [countingStatement] = statements;

    expect(inTransit.totalItems).toBe(100);
    expect(open.totalItems).toBe(0);
    expect(open.items.parse()).toEqual([]);
    // Of acme's processes 0-99, updated at hour (index % 24), those of hours 12-23.
    expect(updatedLate.totalItems).toBe(48);
    expect(updatedLate.items.parse()).toHaveLength(20);
    expect(shippedLate.totalItems).toBe(100);
    expect(countsStatement).toContain('from "process_counts"');
    expect(dailyCountsStatement).toContain('from "process_daily_counts"');
    expect(countingStatement).toMatch(/^select count\(\*\)::int from "processes"/);
  });

  // PGlite runs no named statements: nothing to inspect there.
  (target === 'postgres' ? it : it.skip)(
    'prepares a shape once per connection and plans each execution for its values',
    async () => {
      for (let page = 1; page <= 8; page++) {
        await sut.list(criteria({ page, pageSize: 3, sort: 'numero' }), { customerIds: ['acme'] });
      }

      // Sequential statements reuse the pool's last released connection, this one included.
      const [plans] = await database.db
        .select({
          generic: sql<number>`coalesce(sum(generic_plans), 0)::int`,
          custom: sql<number>`coalesce(sum(custom_plans), 0)::int`,
        })
        .from(sql`pg_prepared_statements`)
        .where(sql`name LIKE 'process_page_%'`);

      expect(plans?.generic).toBe(0);
      expect(plans?.custom).toBeGreaterThanOrEqual(8);
    },
  );

  it('renders items as the compact JSON of the documented shape, escaping the upstream text', async () => {
    const awkward = 'Linha 1\nLinha 2\t"aspas" \\ \u0001 São Paulo – ✓ 🚢';
    const process = anOperationsProcess({
      numero: 'EXP-2026-000001',
      status: 'BOOKED',
      updatedAt: '2026-04-02T08:30:15Z',
      type: 'EXPORT',
      mode: 'AIR',
      customer: { id: 'initech', name: awkward },
      customerReference: null,
      shipmentDate: null,
      eta: '2026-04-20',
      arrivalDate: null,
      containers: [],
      customsChannel: 'GREEN',
      freeTimeEndsAt: '2026-04-27',
      events: [
        anEvent({
          id: 'b',
          code: 'NOTE',
          description: awkward,
          occurredAt: '2026-04-01T10:00:00Z',
          location: null,
        }),
        anEvent({ id: 'a', code: 'PROCESS_OPENED', occurredAt: '2026-04-01T10:00:00Z' }),
      ],
    });
    await database.db.transaction((tx) => new ProcessPageWriter(new ChangeRecorder()).write(tx, [process]));
    const [opened, note] = [process.events[1], process.events[0]];

    const page = await sut.list(criteria(), { customerIds: ['initech'] });

    const follow = [opened, note];
    expect(page.items.text).toBe(
      JSON.stringify([
        {
          numero: 'EXP-2026-000001',
          status: 'BOOKED',
          updatedAt: '2026-04-02T08:30:15Z',
          summary: {
            type: 'EXPORT',
            mode: 'AIR',
            customer: { id: 'initech', name: awkward },
            customerReference: null,
            origin: process.origin,
            destination: process.destination,
            shipmentDate: null,
            eta: '2026-04-20',
            originalEta: '2026-04-20',
            etaDelayDays: 0,
            arrivalDate: null,
            containers: [],
            customsChannel: 'GREEN',
            freeTimeEndsAt: '2026-04-27',
            followCount: 2,
          },
          lastFollow: note,
          follow,
        },
      ]),
    );
  });

  it('totals updated ranges from whole UTC days and partial edges exactly as counting would', async () => {
    const HOUR_MS = 3_600_000;
    const start = Date.UTC(2026, 5, 1);
    // Every 5.5 h over ~9 days (some at midnight exactly), three statuses, two customers.
    const data = Array.from({ length: 40 }, (_, index) => ({
      numero: `UMB-2026-${String(index).padStart(6, '0')}`,
      customer: index % 4 === 0 ? { id: 'hooli', name: 'Hooli' } : { id: 'umbrella', name: 'Umbrella' },
      status: (['OPEN', 'BOOKED', 'IN_TRANSIT'] as const)[index % 3]!,
      updatedAt: new Date(start + index * 5.5 * HOUR_MS),
    }));
    await database.db.transaction((tx) =>
      new ProcessPageWriter(new ChangeRecorder()).write(
        tx,
        data.map((process) =>
          anOperationsProcess({
            ...process,
            updatedAt: process.updatedAt.toISOString().replace('.000Z', 'Z'),
          }),
        ),
      ),
    );
    const at = (hours: number) => new Date(start + hours * HOUR_MS);
    const bounds = [null, at(0), at(5.5), at(24), at(30), at(30.25), at(47), at(72), at(200), at(300)];
    const visibility = { customerIds: ['umbrella', 'hooli'] };

    for (const updatedFrom of bounds) {
      for (const updatedBefore of bounds) {
        if (updatedFrom === null && updatedBefore === null) continue;
        for (const statuses of [null, ['BOOKED' as const], ['OPEN' as const, 'IN_TRANSIT' as const]]) {
          const expected = data.filter(
            (process) =>
              (updatedFrom === null || process.updatedAt >= updatedFrom) &&
              (updatedBefore === null || process.updatedAt < updatedBefore) &&
              (statuses === null || statuses.some((status) => status === process.status)),
          ).length;

          const page = await sut.list(
            criteria({ updatedFrom, updatedBefore, statuses, pageSize: 1 }),
            visibility,
          );

          expect({ updatedFrom, updatedBefore, statuses, total: page.totalItems }).toEqual({
            updatedFrom,
            updatedBefore,
            statuses,
            total: expected,
          });
        }
      }
    }
    expect(statements.some((statement) => statement.includes('from "process_daily_counts"'))).toBe(true);
  });

  it('totals ETA ranges from the per-ETA totals exactly as counting would, after ETAs moved', async () => {
    const dayOf = (offset: number) => new Date(Date.UTC(2026, 6, 1 + offset)).toISOString().slice(0, 10);
    // Over ten days, every fifth without an ETA, three statuses, two customers; then written again
    // with some ETAs slipped, one brought forward and one cleared, as sync would.
    const data = Array.from({ length: 40 }, (_, index) => ({
      numero: `TYR-2026-${String(index).padStart(6, '0')}`,
      customer: index % 4 === 0 ? { id: 'cyberdyne', name: 'Cyberdyne' } : { id: 'tyrell', name: 'Tyrell' },
      status: (['OPEN', 'BOOKED', 'IN_TRANSIT'] as const)[index % 3]!,
      eta: index % 5 === 0 ? null : dayOf(index % 10),
    }));
    const moved = data.map((process, index) => ({
      ...process,
      eta: index === 1 || process.eta === null ? null : dayOf((index % 10) + [0, 2, -1][index % 3]!),
      updatedAt: '2026-06-02T00:00:00Z',
    }));
    const writer = new ProcessPageWriter(new ChangeRecorder());
    await database.db.transaction((tx) =>
      writer.write(
        tx,
        data.map((process) => anOperationsProcess(process)),
      ),
    );
    await database.db.transaction((tx) =>
      writer.write(
        tx,
        moved.map((process) => anOperationsProcess(process)),
      ),
    );
    const bounds = [null, dayOf(-1), dayOf(0), dayOf(3), dayOf(7), dayOf(11)];
    const visibility = { customerIds: ['tyrell', 'cyberdyne'] };

    for (const etaFrom of bounds) {
      for (const etaTo of bounds) {
        if (etaFrom === null && etaTo === null) continue;
        for (const statuses of [null, ['BOOKED' as const], ['OPEN' as const, 'IN_TRANSIT' as const]]) {
          const expected = moved.filter(
            ({ eta, status }) =>
              eta !== null &&
              (etaFrom === null || eta >= etaFrom) &&
              (etaTo === null || eta <= etaTo) &&
              (statuses === null || statuses.some((wanted) => wanted === status)),
          ).length;

          const page = await sut.list(criteria({ etaFrom, etaTo, statuses, pageSize: 1 }), visibility);

          expect({ etaFrom, etaTo, statuses, total: page.totalItems }).toEqual({
            etaFrom,
            etaTo,
            statuses,
            total: expected,
          });
        }
      }
    }
    expect(statements.some((statement) => statement.includes('from "process_eta_daily_counts"'))).toBe(true);
    expect(statements.some((statement) => /^select count\(\*\)/.test(statement))).toBe(false);
  });

  it('finds one visible process case-insensitively, and nothing of another customer', async () => {
    const found = await sut.findVisible('imp-2026-000007', { customerIds: ['acme'] });
    const foreign = await sut.findVisible('IMP-2026-000110', { customerIds: ['acme'] });

    expect(found?.summary.numero).toBe('IMP-2026-000007');
    expect(found?.summary.lastFollow).toEqual(found?.summary.follow.at(-1));
    expect(found?.customs).toBeNull();
    expect(foreign).toBeNull();
  });

  it('finds for staff and for a user of several customers, with one statement per visibility shape', async () => {
    const byStaff = await sut.findVisible('IMP-2026-000110', { customerIds: null });
    const bySeveral = await sut.findVisible('IMP-2026-000110', { customerIds: ['acme', 'globex'] });
    const byNone = await sut.findVisible('IMP-2026-000110', { customerIds: [] });
    const again = await sut.findVisible('IMP-2026-000111', { customerIds: ['initech', 'globex'] });

    expect([byStaff?.summary.numero, bySeveral?.summary.numero, byNone, again?.summary.numero]).toEqual([
      'IMP-2026-000110',
      'IMP-2026-000110',
      null,
      'IMP-2026-000111',
    ]);
    expect(new Set(statements).size).toBe(2);
  });

  it('keeps every ETA sync saw, oldest first, and the delay from the first', async () => {
    const write = (eta: string | null, updatedAt: string) =>
      database.db.transaction((tx) =>
        new ProcessPageWriter(new ChangeRecorder()).write(tx, [
          anOperationsProcess({
            numero: 'IMP-2026-900001',
            customer: { id: 'umbrella', name: 'U' },
            eta,
            updatedAt,
          }),
        ]),
      );
    await write(null, '2026-05-01T00:00:00Z');
    await write('2026-05-20', '2026-05-02T00:00:00Z');
    await write('2026-05-20', '2026-05-03T00:00:00Z');
    await write('2026-05-26', '2026-05-04T00:00:00Z');
    await write('2026-05-24', '2026-05-05T00:00:00Z');

    const found = await sut.findVisible('IMP-2026-900001', { customerIds: ['umbrella'] });

    expect(found?.etaHistory.map((record) => record.eta)).toEqual(['2026-05-20', '2026-05-26', '2026-05-24']);
    expect(
      found?.etaHistory.every((record) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(record.recordedAt)),
    ).toBe(true);
    expect(found?.summary.summary).toMatchObject({
      eta: '2026-05-24',
      originalEta: '2026-05-20',
      etaDelayDays: 4,
    });
    const delayed = await sut.list(criteria({ delayedByDays: 4 }), { customerIds: ['umbrella'] });
    const notSoDelayed = await sut.list(criteria({ delayedByDays: 5 }), { customerIds: ['umbrella'] });
    expect([delayed.totalItems, notSoDelayed.totalItems]).toEqual([1, 0]);
  });

  it.each([
    ['eta', ['IMP-2026-800002', 'IMP-2026-800001', 'IMP-2026-800003', 'IMP-2026-800004']],
    ['-eta', ['IMP-2026-800003', 'IMP-2026-800001', 'IMP-2026-800002', 'IMP-2026-800004']],
    ['freeTimeEndsAt', ['IMP-2026-800004', 'IMP-2026-800002', 'IMP-2026-800001', 'IMP-2026-800003']],
    ['-freeTimeEndsAt', ['IMP-2026-800002', 'IMP-2026-800004', 'IMP-2026-800001', 'IMP-2026-800003']],
  ] as const)('sorts by %s with nulls last, ties by numero', async (sort, expected) => {
    const dates: Array<[string | null, string | null]> = [
      ['2026-06-10', null],
      ['2026-06-05', '2026-06-20'],
      ['2026-06-20', null],
      [null, '2026-06-12'],
    ];
    await database.db.transaction((tx) =>
      new ProcessPageWriter(new ChangeRecorder()).write(
        tx,
        dates.map(([eta, freeTimeEndsAt], index) =>
          anOperationsProcess({
            numero: `IMP-2026-80000${index + 1}`,
            customer: { id: 'stark', name: 'Stark' },
            eta,
            freeTimeEndsAt,
            updatedAt: '2026-06-01T00:00:00Z',
          }),
        ),
      ),
    );

    const page = await sut.list(criteria({ sort }), { customerIds: ['stark'] });

    expect(page.items.parse().map((item) => item.numero)).toEqual(expected);
  });

  it('serves processes whose list items are not rendered yet exactly as rendered ones, fingerprints included', async () => {
    const visibility = { customerIds: ['acme'] };
    const rendered = await sut.list(criteria({ pageSize: 20 }), visibility);
    const renderedDetail = await sut.findVisible('IMP-2026-000007', visibility);

    await database.db.execute(sql`DELETE FROM process_list_items WHERE numero <= 'IMP-2026-000010'`);
    try {
      const meanwhile = await sut.list(criteria({ pageSize: 20 }), visibility);

      expect(meanwhile.items.text).toBe(rendered.items.text);
      expect(meanwhile.items.fingerprint).toBe(rendered.items.fingerprint);
      expect(await sut.findVisible('IMP-2026-000007', visibility)).toEqual(renderedDetail);
    } finally {
      await renderMissingListItems(database.db, '', 1000);
    }
  });

  it('renders anew the items stored in an earlier shape, which the previous release serves meanwhile, until the backfill reaches them', async () => {
    const visibility = { customerIds: ['acme'] };
    const rendered = await sut.list(criteria({ pageSize: 20 }), visibility);
    const renderedDetail = await sut.findVisible('IMP-2026-000007', visibility);

    // As a migration that changes the item's shape leaves them: still there, their shape older.
    await database.db.execute(
      sql`UPDATE process_list_items SET body = '{"earlier":"shape"}', shape = ${LIST_ITEM_SHAPE - 1}
           WHERE numero <= 'IMP-2026-000010'`,
    );
    try {
      const meanwhile = await sut.list(criteria({ pageSize: 20 }), visibility);

      expect(meanwhile.items.text).toBe(rendered.items.text);
      expect(meanwhile.items.fingerprint).toBe(rendered.items.fingerprint);
      expect(await sut.findVisible('IMP-2026-000007', visibility)).toEqual(renderedDetail);
      await renderMissingListItems(database.db, '', 1000);
      const [left] = await rowsOf<{ count: number }>(
        database.db,
        sql`SELECT count(*)::int AS count FROM process_list_items WHERE shape <> ${LIST_ITEM_SHAPE}`,
      );
      expect(left).toEqual({ count: 0 });
    } finally {
      await renderMissingListItems(database.db, '', 1000);
    }
  });
});
