import { iso6346CheckDigit } from '../src/common/iso6346.js';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import type { OperationsProcess } from '../src/operations/operations.types.js';
import { CUSTOMS_CHANNELS, PROCESS_STATUSES, TRANSPORT_MODES } from '../src/domain/process.vocabulary.js';
import { anOperationsDetail, anOperationsProcess } from '../src/testing/operations-process.factory.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { TestApp } from './support/test-app.js';
import { syncNow } from './support/sync-now.js';
import { APP_TEST_DATABASE_TARGET } from '../src/testing/test-database.js';

interface Item {
  numero: string;
  status: string;
  updatedAt: string;
  summary: {
    customer: { id: string };
    shipmentDate: string | null;
    containers: string[];
    followCount: number;
  };
  follow: Array<{ id: string; occurredAt: string }>;
  lastFollow: { id: string } | null;
}

const pad = (value: number) => String(value).padStart(2, '0');
const container = (serial: number) => {
  const first10 = `TGHU${String(serial).padStart(6, '0')}`;
  return `${first10}${iso6346CheckDigit(first10)}`;
};

/** 30 processes: 20 of acme, 10 of globex; every status, type, mode and customs channel (or none); exact updatedAt ties in threes; some without a shipment date. */
function fixture(): OperationsProcess[] {
  return Array.from({ length: 30 }, (_, i) => {
    const type = i % 2 === 0 ? 'IMPORT' : 'EXPORT';
    const numero = `${type === 'IMPORT' ? 'IMP' : 'EXP'}-2026-${String(100 + i).padStart(6, '0')}`;
    const occurredAt = `2026-02-${pad(1 + (i % 20))}T08:00:00Z`;
    return anOperationsProcess({
      numero,
      type,
      mode: TRANSPORT_MODES[i % TRANSPORT_MODES.length],
      customsChannel: i % 5 === 4 ? null : CUSTOMS_CHANNELS[i % 5],
      status: PROCESS_STATUSES[i % PROCESS_STATUSES.length],
      customer:
        i % 3 === 2
          ? { id: 'globex', name: 'Globex Comércio S.A.' }
          : { id: 'acme', name: 'ACME Importadora Ltda' },
      updatedAt: `2026-03-${pad(1 + Math.floor(i / 3))}T10:00:00Z`,
      shipmentDate: i % 5 === 0 ? null : `2026-01-${pad(1 + (i % 28))}`,
      eta: i % 6 === 5 ? null : `2026-03-${pad(10 + (i % 12))}`,
      freeTimeEndsAt: i % 3 === 0 ? `2026-04-${pad(1 + (i % 9))}` : null,
      containers: i % 4 === 0 ? [container(i), container(100 + i)] : [],
      // Two events at the same instant: ordered by id.
      events: [
        { id: `evt_${numero}_b`, code: 'NOTE', description: 'Observação', occurredAt, location: null },
        {
          id: `evt_${numero}_a`,
          code: 'PROCESS_OPENED',
          description: 'Processo aberto',
          occurredAt,
          location: null,
        },
        {
          id: `evt_${numero}_c`,
          code: 'BOOKING_CONFIRMED',
          description: 'Booking confirmado',
          occurredAt: `2026-02-${pad(2 + (i % 20))}T09:30:00Z`,
          location: { code: 'CNSHA', name: 'Shanghai' },
        },
      ],
    });
  });
}

describe.each([APP_TEST_DATABASE_TARGET])('GET /api/processes (%s)', (target) => {
  const processes = fixture();
  const acmeProcesses = processes.filter((process) => process.customer.id === 'acme');
  let testApp: TestApp;
  let acmeToken: string;
  let globexToken: string;
  let staffToken: string;
  let bothToken: string;

  beforeAll(async () => {
    const gateway = new FakeOperationsGateway();
    for (const process of processes) gateway.put(process, anOperationsDetail(process));
    testApp = await TestApp.start({
      target,
      override: (builder) => builder.overrideProvider(OperationsGateway).useValue(gateway),
    });
    await syncNow(testApp);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.addUser({ username: 'globex', password: 'globex-pass-1', customerIds: ['globex'] });
    await testApp.addUser({ username: 'both', password: 'both-pass-1', customerIds: ['acme', 'globex'] });
    await testApp.addUser({ username: 'operator', password: 'operator-pass-1', role: 'staff' });
    acmeToken = await testApp.login('acme', 'acme-pass-1');
    globexToken = await testApp.login('globex', 'globex-pass-1');
    bothToken = await testApp.login('both', 'both-pass-1');
    staffToken = await testApp.login('operator', 'operator-pass-1');
  });

  afterAll(() => testApp.close());

  const list = (query: string, token = acmeToken) =>
    testApp.http.get(`/api/processes${query}`).set('Authorization', `Bearer ${token}`);
  const numerosOf = (body: { data: Item[] }) => body.data.map((item) => item.numero);

  it('lists the first page, newest update first, with summary, follow and lastFollow', async () => {
    const response = await list('').expect(200);

    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers.etag).toMatch(/^W\/"[^"]+"$/);
    expect(response.body.meta).toEqual({ page: 1, pageSize: 20, totalItems: 20, totalPages: 1 });
    const expected = [...acmeProcesses]
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.numero.localeCompare(b.numero))
      .map((process) => process.numero);
    expect(numerosOf(response.body)).toEqual(expected);

    const source = processes.find((process) => process.numero === 'IMP-2026-000100')!;
    const item = (response.body.data as Item[]).find((candidate) => candidate.numero === source.numero)!;
    expect(item).toEqual({
      numero: source.numero,
      status: source.status,
      updatedAt: source.updatedAt,
      summary: {
        type: source.type,
        mode: source.mode,
        customer: source.customer,
        customerReference: source.customerReference,
        origin: source.origin,
        destination: source.destination,
        shipmentDate: source.shipmentDate,
        eta: source.eta,
        originalEta: source.eta,
        etaDelayDays: 0,
        arrivalDate: source.arrivalDate,
        containers: source.containers,
        customsChannel: source.customsChannel,
        freeTimeEndsAt: source.freeTimeEndsAt,
        followCount: 3,
      },
      follow: [
        {
          id: `evt_${source.numero}_a`,
          code: 'PROCESS_OPENED',
          description: 'Processo aberto',
          occurredAt: source.events[0]!.occurredAt,
          location: null,
        },
        {
          id: `evt_${source.numero}_b`,
          code: 'NOTE',
          description: 'Observação',
          occurredAt: source.events[0]!.occurredAt,
          location: null,
        },
        {
          id: `evt_${source.numero}_c`,
          code: 'BOOKING_CONFIRMED',
          description: 'Booking confirmado',
          occurredAt: source.events[2]!.occurredAt,
          location: { code: 'CNSHA', name: 'Shanghai' },
        },
      ],
      lastFollow: {
        id: `evt_${source.numero}_c`,
        code: 'BOOKING_CONFIRMED',
        description: 'Booking confirmado',
        occurredAt: source.events[2]!.occurredAt,
        location: { code: 'CNSHA', name: 'Shanghai' },
      },
    });
  });

  describe('visibility', () => {
    it.each([
      ['acme', () => acmeToken, ['acme']],
      ['globex', () => globexToken, ['globex']],
      ['a user of both customers', () => bothToken, ['acme', 'globex']],
      ['staff', () => staffToken, ['acme', 'globex']],
    ])('%s sees exactly its customers’ processes, in data and counts', async (_who, token, customers) => {
      const response = await list('?pageSize=100', token()).expect(200);
      const expected = processes.filter((process) => customers.includes(process.customer.id));
      expect(response.body.meta.totalItems).toBe(expected.length);
      expect(new Set(numerosOf(response.body))).toEqual(new Set(expected.map((process) => process.numero)));
    });
  });

  describe('pagination', () => {
    it('walks every page once: totalItems distinct processes, with Link headers', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 4; page += 1) {
        const response = await list(`?pageSize=7&page=${page}&sort=numero`).expect(200);
        expect(response.body.meta).toEqual({ page, pageSize: 7, totalItems: 20, totalPages: 3 });
        seen.push(...numerosOf(response.body));
        const link = response.headers.link as string;
        expect(link).toContain('</api/processes?pageSize=7&page=1&sort=numero>; rel="first"');
        expect(link).toContain('</api/processes?pageSize=7&page=3&sort=numero>; rel="last"');
        expect(link.includes('rel="prev"')).toBe(page > 1);
        expect(link.includes('rel="next"')).toBe(page < 3);
        if (page === 2) {
          expect(link).toContain('</api/processes?pageSize=7&page=1&sort=numero>; rel="prev"');
          expect(link).toContain('</api/processes?pageSize=7&page=3&sort=numero>; rel="next"');
        }
      }
      expect(seen).toHaveLength(20);
      expect(new Set(seen).size).toBe(20);
    });

    it('answers a page past the last with empty data and the true meta', async () => {
      const response = await list('?page=9&pageSize=10').expect(200);
      expect(response.body).toEqual({
        data: [],
        meta: { page: 9, pageSize: 10, totalItems: 20, totalPages: 2 },
      });
    });
  });

  describe('filters', () => {
    const expectNumeros = async (query: string, predicate: (process: OperationsProcess) => boolean) => {
      const response = await list(`${query}&pageSize=100&sort=numero`).expect(200);
      const expected = acmeProcesses
        .filter(predicate)
        .map((process) => process.numero)
        .sort();
      expect(expected.length).toBeGreaterThan(0);
      expect(numerosOf(response.body)).toEqual(expected);
      expect(response.body.meta.totalItems).toBe(expected.length);
    };

    it('status, one or several, case-insensitive', async () => {
      await expectNumeros('?status=in_transit', (process) => process.status === 'IN_TRANSIT');
      await expectNumeros('?status=OPEN,Delivered', (process) =>
        ['OPEN', 'DELIVERED'].includes(process.status),
      );
    });

    it.each([
      ['repeated, as generated clients send them', '?status=OPEN&status=delivered&status=ARRIVED'],
      ['repeated and comma-separated mixed', '?status=OPEN,delivered&status=ARRIVED'],
    ])('status, several values %s', async (_form, query) => {
      await expectNumeros(query, (process) => ['OPEN', 'DELIVERED', 'ARRIVED'].includes(process.status));
    });

    it('mode and customs channel, several values repeated', async () => {
      await expectNumeros('?mode=SEA&mode=road', (process) => process.mode !== 'AIR');
      await expectNumeros('?customsChannel=GREEN&customsChannel=none,RED', (process) =>
        [null, 'GREEN', 'RED'].includes(process.customsChannel),
      );
    });

    it('shipment date range, inclusive at both ends', async () => {
      await expectNumeros(
        '?shipmentFrom=2026-01-05&shipmentTo=2026-01-12',
        (process) =>
          process.shipmentDate !== null &&
          process.shipmentDate >= '2026-01-05' &&
          process.shipmentDate <= '2026-01-12',
      );
      await expectNumeros(
        '?shipmentFrom=2026-01-20',
        (process) => process.shipmentDate !== null && process.shipmentDate >= '2026-01-20',
      );
    });

    it('update range with instants, inclusive', async () => {
      await expectNumeros(
        '?updatedFrom=2026-03-02T10:00:00Z&updatedTo=2026-03-04T10:00:00Z',
        (process) =>
          process.updatedAt >= '2026-03-02T10:00:00Z' && process.updatedAt <= '2026-03-04T10:00:00Z',
      );
    });

    it('update range with instants in another offset', async () => {
      await expectNumeros(
        '?updatedFrom=2026-03-02T07:00:00-03:00&updatedTo=2026-03-02T07:00:00-03:00',
        (process) => process.updatedAt === '2026-03-02T10:00:00Z',
      );
    });

    it('update range with dates covering whole UTC days', async () => {
      await expectNumeros(
        '?updatedFrom=2026-03-03&updatedTo=2026-03-05',
        (process) =>
          process.updatedAt >= '2026-03-03T00:00:00Z' && process.updatedAt < '2026-03-06T00:00:00Z',
      );
    });

    it('the first and last days of the years 0001-9999 as bounds', async () => {
      await expectNumeros('?updatedTo=9999-12-31', () => true);
      await expectNumeros('?updatedFrom=0001-01-01&updatedTo=9999-12-31T23:59:59.999Z', () => true);
      // An offset may put a bound in the year before 0001 or after 9999, in UTC.
      await expectNumeros(
        '?updatedFrom=0001-01-01T00:00:00%2B01:00&updatedTo=9999-12-31T23:00:00-02:00',
        () => true,
      );
      await expectNumeros(
        '?shipmentFrom=0001-01-01&shipmentTo=9999-12-31',
        (process) => process.shipmentDate !== null,
      );
      const none = await list('?updatedFrom=9999-12-31T23:59:59.999Z').expect(200);
      expect(none.body.meta.totalItems).toBe(0);
    });

    it('ETA range, inclusive at both ends', async () => {
      await expectNumeros(
        '?etaFrom=2026-03-12&etaTo=2026-03-15',
        (process) => process.eta !== null && process.eta >= '2026-03-12' && process.eta <= '2026-03-15',
      );
      await expectNumeros(
        '?etaTo=2026-03-11',
        (process) => process.eta !== null && process.eta <= '2026-03-11',
      );
    });

    it('free-time end range, inclusive at both ends', async () => {
      await expectNumeros(
        '?freeTimeEndsFrom=2026-04-02&freeTimeEndsTo=2026-04-05',
        (process) =>
          process.freeTimeEndsAt !== null &&
          process.freeTimeEndsAt >= '2026-04-02' &&
          process.freeTimeEndsAt <= '2026-04-05',
      );
    });

    it('container, normalised from case, spaces and hyphens', async () => {
      const wanted = container(4);
      const typed = `${wanted.slice(0, 4).toLowerCase()} ${wanted.slice(4, 10)}-${wanted.slice(10)}`;
      await expectNumeros(`?container=${encodeURIComponent(typed)}`, (process) =>
        process.containers.includes(wanted),
      );
    });

    it('type, case-insensitive', async () => {
      await expectNumeros('?type=export', (process) => process.type === 'EXPORT');
      await expectNumeros('?type=IMPORT', (process) => process.type === 'IMPORT');
    });

    it('mode, one or several, case-insensitive', async () => {
      await expectNumeros('?mode=air', (process) => process.mode === 'AIR');
      await expectNumeros('?mode=SEA,Road', (process) => process.mode !== 'AIR');
    });

    it('customs channel, NONE meaning no channel assigned', async () => {
      await expectNumeros('?customsChannel=red', (process) => process.customsChannel === 'RED');
      await expectNumeros('?customsChannel=NONE', (process) => process.customsChannel === null);
      await expectNumeros('?customsChannel=GREEN,none', (process) =>
        [null, 'GREEN'].includes(process.customsChannel),
      );
    });

    it('type, mode and channel with the other filters', async () => {
      await expectNumeros(
        '?type=IMPORT&mode=SEA,AIR&customsChannel=GREEN,YELLOW,NONE&status=OPEN,BOOKED,IN_TRANSIT,ARRIVED,CLEARED',
        (process) =>
          process.type === 'IMPORT' &&
          process.mode !== 'ROAD' &&
          [null, 'GREEN', 'YELLOW'].includes(process.customsChannel) &&
          ['OPEN', 'BOOKED', 'IN_TRANSIT', 'ARRIVED', 'CLEARED'].includes(process.status),
      );
      await expectNumeros(
        '?mode=SEA&updatedFrom=2026-03-02T10:00:00Z',
        (process) => process.mode === 'SEA' && process.updatedAt >= '2026-03-02T10:00:00Z',
      );
    });

    it('several filters at once', async () => {
      await expectNumeros(
        '?status=OPEN,BOOKED,IN_TRANSIT,ARRIVED&shipmentFrom=2026-01-01&updatedTo=2026-03-06',
        (process) =>
          ['OPEN', 'BOOKED', 'IN_TRANSIT', 'ARRIVED'].includes(process.status) &&
          process.shipmentDate !== null &&
          process.updatedAt < '2026-03-07T00:00:00Z',
      );
    });

    it('a container of another customer finds nothing', async () => {
      const globexWithContainer = processes.find(
        (process) => process.customer.id === 'globex' && process.containers.length > 0,
      );
      expect(globexWithContainer).toBeDefined();
      const response = await list(`?container=${globexWithContainer!.containers[0]}`).expect(200);
      expect(response.body.meta.totalItems).toBe(0);
    });
  });

  describe('sort orders, ties broken by numero', () => {
    const byNumero = (a: OperationsProcess, b: OperationsProcess) => a.numero.localeCompare(b.numero);
    const nullsLast = (a: string | null, b: string | null, direction: 1 | -1) =>
      a === b ? 0 : a === null ? 1 : b === null ? -1 : direction * a.localeCompare(b);
    it.each([
      [
        'updatedAt',
        (a: OperationsProcess, b: OperationsProcess) =>
          a.updatedAt.localeCompare(b.updatedAt) || byNumero(a, b),
      ],
      [
        '-updatedAt',
        (a: OperationsProcess, b: OperationsProcess) =>
          b.updatedAt.localeCompare(a.updatedAt) || byNumero(a, b),
      ],
      [
        'shipmentDate',
        (a: OperationsProcess, b: OperationsProcess) =>
          nullsLast(a.shipmentDate, b.shipmentDate, 1) || byNumero(a, b),
      ],
      [
        '-shipmentDate',
        (a: OperationsProcess, b: OperationsProcess) =>
          nullsLast(a.shipmentDate, b.shipmentDate, -1) || byNumero(a, b),
      ],
      ['numero', byNumero],
      ['-numero', (a: OperationsProcess, b: OperationsProcess) => byNumero(b, a)],
      ['eta', (a: OperationsProcess, b: OperationsProcess) => nullsLast(a.eta, b.eta, 1) || byNumero(a, b)],
      ['-eta', (a: OperationsProcess, b: OperationsProcess) => nullsLast(a.eta, b.eta, -1) || byNumero(a, b)],
      [
        'freeTimeEndsAt',
        (a: OperationsProcess, b: OperationsProcess) =>
          nullsLast(a.freeTimeEndsAt, b.freeTimeEndsAt, 1) || byNumero(a, b),
      ],
      [
        '-freeTimeEndsAt',
        (a: OperationsProcess, b: OperationsProcess) =>
          nullsLast(a.freeTimeEndsAt, b.freeTimeEndsAt, -1) || byNumero(a, b),
      ],
    ])('sort=%s', async (sort, compare) => {
      const response = await list(`?sort=${sort}&pageSize=100`).expect(200);
      expect(numerosOf(response.body)).toEqual(
        [...acmeProcesses].sort(compare).map((process) => process.numero),
      );
    });
  });

  describe('conditional requests', () => {
    it('answers 304 to If-None-Match with the current ETag', async () => {
      const first = await list('?status=OPEN').expect(200);
      const second = await list('?status=OPEN')
        .set('If-None-Match', first.headers.etag as string)
        .expect(304);
      expect(second.text).toBe('');
      expect(second.headers.etag).toBe(first.headers.etag);
    });

    it('answers 200 when the tag is another page’s', async () => {
      const other = await list('?status=BOOKED').expect(200);
      await list('?status=OPEN')
        .set('If-None-Match', other.headers.etag as string)
        .expect(200);
    });
  });
});
