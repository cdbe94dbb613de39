import { aListCriteria } from '../testing/list-criteria.factory.js';
import { ChangeRecorder } from '../changes/change-recorder.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Visibility } from '../domain/authenticated-user.js';
import { ChangesRepository } from '../changes/changes.repository.js';
import type { DatabaseService } from '../database/database.service.js';
import type { ProcessListCriteria, ProcessSort } from '../processes/process-list.criteria.js';
import { PROCESS_SORTS } from '../processes/process-list.criteria.js';
import { ProcessesRepository } from '../processes/processes.repository.js';
import { ProcessPageWriter } from '../sync/process-page.writer.js';
import { anOperationsProcess } from '../testing/operations-process.factory.js';
import { connectTestDatabase } from '../testing/test-database.js';

/**
 * The SQL the repositories send, one file per repository, committed so that a change of SQL shows
 * in review. `npm run sql:snapshot` rewrites the files; this spec fails while they differ from
 * what the code sends.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const UPDATE = process.env.UPDATE_SQL_SNAPSHOT === '1';

const NO_FILTER = aListCriteria();

const ONE_CUSTOMER: Visibility = { customerIds: ['acme'] };
const SEVERAL_CUSTOMERS: Visibility = { customerIds: ['acme', 'globex'] };
const STAFF: Visibility = { customerIds: null };

/** Every filter alone (its shapes), every sort, and each visibility: values the one stored process matches. */
const LIST_SHAPES: Array<[string, Partial<ProcessListCriteria>, Visibility]> = [
  ['no filter, as one customer', {}, ONE_CUSTOMER],
  ['no filter, as a user of several customers', {}, SEVERAL_CUSTOMERS],
  ['no filter, as staff', {}, STAFF],
  ['one status', { statuses: ['IN_TRANSIT'] }, ONE_CUSTOMER],
  ['several statuses', { statuses: ['IN_TRANSIT', 'ARRIVED'] }, ONE_CUSTOMER],
  ['type', { types: ['IMPORT'] }, ONE_CUSTOMER],
  ['several modes', { modes: ['SEA', 'AIR'] }, ONE_CUSTOMER],
  ['one customs channel', { customsChannels: ['RED'] }, ONE_CUSTOMER],
  ['customs channel or none', { customsChannels: ['RED', 'NONE'] }, ONE_CUSTOMER],
  ['shipment range', { shipmentFrom: '2026-02-01', shipmentTo: '2026-02-28' }, ONE_CUSTOMER],
  ['updated from', { updatedFrom: new Date('2026-03-01T06:00:00Z') }, ONE_CUSTOMER],
  [
    'updated range, with a status',
    {
      statuses: ['IN_TRANSIT'],
      updatedFrom: new Date('2026-02-27T06:00:00Z'),
      updatedBefore: new Date('2026-03-02T06:00:00Z'),
    },
    ONE_CUSTOMER,
  ],
  [
    'updated range, with a mode',
    { modes: ['SEA'], updatedFrom: new Date('2026-03-01T06:00:00Z') },
    ONE_CUSTOMER,
  ],
  ['container', { container: 'MSCU1234566' }, ONE_CUSTOMER],
  ['arriving in a week, by ETA', { etaFrom: '2026-03-02', etaTo: '2026-03-08', sort: 'eta' }, ONE_CUSTOMER],
  [
    'free time ending in 3 days, by its end',
    { freeTimeEndsFrom: '2026-03-02', freeTimeEndsTo: '2026-03-04', sort: 'freeTimeEndsAt' },
    ONE_CUSTOMER,
  ],
  ['delayed by days', { delayedByDays: 3 }, ONE_CUSTOMER],
  ['delayed by days, as staff', { delayedByDays: 3 }, STAFF],
  ...PROCESS_SORTS.filter((sort) => sort !== '-updatedAt').map(
    (sort): [string, Partial<ProcessListCriteria>, Visibility] => [
      `sort ${sort}`,
      { sort: sort satisfies ProcessSort },
      ONE_CUSTOMER,
    ],
  ),
];

describe('the SQL the repositories send', () => {
  let sent: string[] = [];
  let database: DatabaseService;
  let dispose: () => Promise<void>;
  const rendered = new Map<string, string[]>();

  /** Runs `work` and files the statements it sent under `title` in `file`. */
  const capture = async (file: string, title: string, work: () => Promise<unknown>) => {
    sent = [];
    await work();
    const sections = rendered.get(file) ?? [];
    sections.push(`-- ${title}\n${sent.map((text) => `${normalized(text)};`).join('\n\n')}`);
    rendered.set(file, sections);
  };

  beforeAll(async () => {
    ({ database, dispose } = await connectTestDatabase('pglite', {
      queryLogger: { logQuery: (query) => void sent.push(query) },
    }));
    await database.db.transaction((tx) =>
      new ProcessPageWriter(new ChangeRecorder()).write(tx, [
        anOperationsProcess({ numero: 'IMP-1', customsChannel: 'RED', containers: ['MSCU1234566'] }),
      ]),
    );
  });

  afterAll(() => dispose());

  it('matches the committed snapshots', async () => {
    const processes = new ProcessesRepository(database);
    for (const [title, criteria, visibility] of LIST_SHAPES) {
      await capture('processes.repository.sql', `list: ${title} (count, then page)`, () =>
        processes.list({ ...NO_FILTER, ...criteria }, visibility),
      );
    }
    for (const [title, visibility] of [
      ['one customer', ONE_CUSTOMER],
      ['several customers', SEVERAL_CUSTOMERS],
      ['staff', STAFF],
    ] as const) {
      await capture('processes.repository.sql', `findVisible: as ${title}`, () =>
        processes.findVisible('imp-1', visibility),
      );
    }

    const changes = new ChangesRepository(database);
    await capture('changes.repository.sql', 'extent', () => changes.extent());
    await capture('changes.repository.sql', 'after: as one customer', () =>
      changes.after(0, 100, ONE_CUSTOMER),
    );
    await capture('changes.repository.sql', 'after: as staff', () => changes.after(0, 100, STAFF));
    await capture('changes.repository.sql', 'page: as one customer, after a position', () =>
      changes.page(0, 100, ONE_CUSTOMER),
    );
    await capture('changes.repository.sql', 'page: as staff, from the oldest', () =>
      changes.page(null, 100, STAFF),
    );
    await capture('changes.repository.sql', 'positionBefore', () =>
      changes.positionBefore(new Date('2026-03-01T00:00:00Z')),
    );
    await capture('changes.repository.sql', 'pruneBefore', () =>
      changes.pruneBefore(new Date('2000-01-01T00:00:00Z'), 5000),
    );

    await capture('process-page.writer.sql', 'write: a page of one changed process', () =>
      database.db.transaction((tx) =>
        new ProcessPageWriter(new ChangeRecorder()).write(tx, [
          anOperationsProcess({ numero: 'IMP-1', status: 'ARRIVED', updatedAt: '2026-03-02T12:00:00Z' }),
        ]),
      ),
    );

    for (const [file, sections] of rendered) {
      const text = `-- Generated by \`npm run sql:snapshot\`; do not edit.\n\n${sections.join('\n\n')}\n`;
      const path = join(HERE, file);
      if (UPDATE) writeFileSync(path, text);
      expect(text).toBe(readFileSync(path, 'utf8'));
    }
  });
});

/** One statement, its indentation and blank lines evened out (the code's layout is not the point). */
function normalized(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join('\n');
}
