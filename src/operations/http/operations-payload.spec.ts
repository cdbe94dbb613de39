import { OperationsUnavailableError } from '../operations.gateway.js';
import {
  canonicalInstant,
  isAcceptableNumero,
  parseChangedProcessesPage,
  parseProcessDetail,
} from './operations-payload.js';

type Json = Record<string, unknown>;

function wireProcess(overrides: Json = {}): Json {
  return {
    numero: 'IMP-2026-000123',
    status: 'IN_TRANSIT',
    updatedAt: '2026-03-14T12:00:00Z',
    type: 'IMPORT',
    mode: 'SEA',
    customer: { id: 'acme', name: 'ACME Importadora Ltda' },
    customerReference: 'PO-4471',
    origin: { code: 'CNSHA', name: 'Shanghai' },
    destination: { code: 'BRSSZ', name: 'Santos' },
    shipmentDate: '2026-02-20',
    eta: '2026-03-25',
    arrivalDate: null,
    containers: ['MSCU1234565'],
    customsChannel: null,
    events: [
      {
        id: 'evt_1',
        code: 'DEPARTED',
        description: 'Navio MSC AURORA partiu de Shanghai',
        occurredAt: '2026-02-21T03:00:00Z',
        location: { code: 'CNSHA', name: 'Shanghai' },
      },
    ],
    ...overrides,
  };
}

function wireDetail(overrides: Json = {}): Json {
  return {
    numero: 'IMP-2026-000123',
    parties: [
      { role: 'IMPORTER', name: 'ACME Importadora Ltda', taxId: '12.345.678/0001-95', country: 'BR' },
    ],
    shipment: {
      type: 'IMPORT',
      mode: 'SEA',
      incoterm: 'FOB',
      origin: { code: 'CNSHA', name: 'Shanghai' },
      destination: { code: 'BRSSZ', name: 'Santos' },
      shipmentDate: '2026-02-20',
      eta: '2026-03-25',
      arrivalDate: null,
      bookingNumber: 'MSC123456',
      masterBill: 'MEDU1234567',
      houseBill: 'HB-2026-0042',
      cargoDescription: 'Auto parts',
      packages: 120,
      grossWeightKg: 18250.5,
      volumeM3: 54.2,
    },
    containers: [{ number: 'MSCU1234565', type: '40HC', sealNumber: 'SL123456', grossWeightKg: 9100 }],
    voyages: [
      {
        sequence: 1,
        vessel: 'MSC AURORA',
        voyageNumber: 'AU123W',
        carrier: 'MSC',
        loadPort: { code: 'CNSHA', name: 'Shanghai' },
        dischargePort: { code: 'BRSSZ', name: 'Santos' },
        etd: '2026-02-20T10:00:00Z',
        atd: null,
        eta: '2026-03-25T08:00:00Z',
        ata: null,
      },
    ],
    ...overrides,
  };
}

function withEvent(overrides: Json): Json {
  const [event] = wireProcess().events as Json[];
  return wireProcess({ events: [{ ...event, ...overrides }] });
}

function capturingLogger() {
  const messages: string[] = [];
  return { messages, warn: (message: string) => void messages.push(message) };
}

function parseOne(item: unknown) {
  const logger = capturingLogger();
  const page = parseChangedProcessesPage({ items: [item], nextCursor: null }, logger);
  return { items: page.items, messages: logger.messages };
}

describe('parseChangedProcessesPage', () => {
  it('maps a valid page into our types', () => {
    const logger = capturingLogger();
    const page = parseChangedProcessesPage({ items: [wireProcess()], nextCursor: 'c2' }, logger);

    expect(page).toEqual({
      nextCursor: 'c2',
      items: [
        {
          numero: 'IMP-2026-000123',
          status: 'IN_TRANSIT',
          updatedAt: '2026-03-14T12:00:00Z',
          type: 'IMPORT',
          mode: 'SEA',
          customer: { id: 'acme', name: 'ACME Importadora Ltda' },
          customerReference: 'PO-4471',
          origin: { code: 'CNSHA', name: 'Shanghai' },
          destination: { code: 'BRSSZ', name: 'Santos' },
          shipmentDate: '2026-02-20',
          eta: '2026-03-25',
          arrivalDate: null,
          containers: ['MSCU1234565'],
          customsChannel: null,
          freeTimeEndsAt: null,
          customs: null,
          events: [
            {
              id: 'evt_1',
              code: 'DEPARTED',
              description: 'Navio MSC AURORA partiu de Shanghai',
              occurredAt: '2026-02-21T03:00:00Z',
              location: { code: 'CNSHA', name: 'Shanghai' },
            },
          ],
        },
      ],
    });
    expect(logger.messages).toEqual([]);
  });

  it('maps the customs declaration and free time, normalising their instants', () => {
    const customs = {
      declarationType: 'DUIMP',
      declarationNumber: '26BR0000123456-7',
      registeredAt: '2026-03-20T11:05:00-03:00',
      channel: 'RED',
      channelAssignedAt: '2026-03-20T18:40:00Z',
      ceMercante: { master: '152605012345678', house: '152605012345679' },
    };
    const { items } = parseOne(wireProcess({ customsChannel: 'RED', customs, freeTimeEndsAt: '2026-04-02' }));

    expect(items[0]).toMatchObject({
      customsChannel: 'RED',
      freeTimeEndsAt: '2026-04-02',
      customs: { ...customs, registeredAt: '2026-03-20T14:05:00Z', clearedAt: null },
    });
  });

  it.each([
    [
      'a channel that differs from customs.channel',
      { customsChannel: 'GREEN' },
      'customsChannel: must equal customs.channel',
    ],
    ['an unknown declaration type', { customs: { declarationType: 'DSI' } }, 'customs.declarationType'],
    [
      'a CE-Mercante number that is not 15 digits',
      { customs: { ceMercante: { master: '1526' } } },
      'customs.ceMercante.master',
    ],
    ['an impossible free-time date', { freeTimeEndsAt: '2026-02-30' }, 'freeTimeEndsAt'],
  ])('drops an item with %s', (_case, change, reason) => {
    const customs = {
      declarationType: 'DI',
      declarationNumber: '26/0123456-1',
      registeredAt: '2026-03-20T14:05:00Z',
      channel: 'RED',
      channelAssignedAt: null,
      clearedAt: null,
      ceMercante: null,
    };
    const wire = { customsChannel: 'RED', customs, ...change };
    if ('customs' in change) wire.customs = { ...customs, ...change.customs };
    const logger = capturingLogger();

    const page = parseChangedProcessesPage({ items: [wireProcess(wire)], nextCursor: null }, logger);

    expect(page.items).toEqual([]);
    expect(logger.messages.join('\n')).toContain(reason);
  });

  it('normalises instants, containers, places and strings', () => {
    const { items } = parseOne(
      wireProcess({
        numero: '  IMP-2026-000123 ',
        updatedAt: '2026-03-14T09:00:00.750-03:00',
        customerReference: '   ',
        origin: { code: 'cnsha', name: ' Shanghai ' },
        containers: ['mscu 123456-5', 'MSCU1234565', 'TGHU-9876543'],
        events: [
          {
            id: 'evt_1',
            code: 'NOTE',
            description: '  nota ',
            occurredAt: '2026-02-21T03:00:00+05:30',
            location: null,
          },
        ],
      }),
    );

    expect(items).toHaveLength(1);
    const [item] = items;
    expect(item?.numero).toBe('IMP-2026-000123');
    expect(item?.updatedAt).toBe('2026-03-14T12:00:00Z');
    expect(item?.customerReference).toBeNull();
    expect(item?.origin).toEqual({ code: 'CNSHA', name: 'Shanghai' });
    expect(item?.containers).toEqual(['MSCU1234565', 'TGHU9876543']);
    expect(item?.events[0]).toEqual({
      id: 'evt_1',
      code: 'NOTE',
      description: 'nota',
      occurredAt: '2026-02-20T21:30:00Z',
      location: null,
    });
  });

  it('reads absent nullable fields as null and ignores extra fields', () => {
    const process = wireProcess({ extra: { nested: true } });
    delete process.customerReference;
    delete process.customsChannel;
    delete process.arrivalDate;
    const [event] = process.events as Json[];
    delete event?.location;

    const { items, messages } = parseOne(process);

    expect(messages).toEqual([]);
    expect(items[0]).not.toHaveProperty('extra');
    expect(items[0]).toMatchObject({ customerReference: null, customsChannel: null, arrivalDate: null });
    expect(items[0]?.events[0]?.location).toBeNull();
  });

  const malformedItems: Array<[string, unknown]> = [
    ['null', null],
    ['a string', 'IMP-1'],
    ['an array', [wireProcess()]],
    ['missing numero', wireProcess({ numero: undefined })],
    ['numero with a slash', wireProcess({ numero: 'IMP/2026' })],
    ['numero of dots', wireProcess({ numero: '..' })],
    ['numero too long', wireProcess({ numero: 'X'.repeat(41) })],
    ['numeric numero', wireProcess({ numero: 123 })],
    ['unknown status', wireProcess({ status: 'LOST_AT_SEA' })],
    ['lower-case status', wireProcess({ status: 'in_transit' })],
    ['unknown type', wireProcess({ type: 'TRANSIT' })],
    ['unknown mode', wireProcess({ mode: 'RAIL' })],
    ['unknown customs channel', wireProcess({ customsChannel: 'BLUE' })],
    ['missing updatedAt', wireProcess({ updatedAt: undefined })],
    ['updatedAt without offset', wireProcess({ updatedAt: '2026-03-14T12:00:00' })],
    ['updatedAt as a date', wireProcess({ updatedAt: '2026-03-14' })],
    ['updatedAt as epoch millis', wireProcess({ updatedAt: 1773489600000 })],
    ['impossible updatedAt', wireProcess({ updatedAt: '2026-02-30T12:00:00Z' })],
    ['impossible shipmentDate', wireProcess({ shipmentDate: '2026-02-29' })],
    ['month 13', wireProcess({ eta: '2026-13-01' })],
    ['non-padded date', wireProcess({ eta: '2026-3-25' })],
    ['date with a time', wireProcess({ arrivalDate: '2026-03-25T00:00:00Z' })],
    ['missing customer', wireProcess({ customer: undefined })],
    ['customer without name', wireProcess({ customer: { id: 'acme', name: '  ' } })],
    ['place as a string', wireProcess({ origin: 'Shanghai' })],
    ['place with a bad code', wireProcess({ destination: { code: 'SANTOS', name: 'Santos' } })],
    ['null origin', wireProcess({ origin: null })],
    ['containers not an array', wireProcess({ containers: 'MSCU1234565' })],
    ['malformed container number', wireProcess({ containers: ['MSCU12345'] })],
    ['numeric container', wireProcess({ containers: [1234565] })],
    ['events missing', wireProcess({ events: undefined })],
    ['events null', wireProcess({ events: null })],
    ['null event', wireProcess({ events: [null] })],
    ['unknown event code', withEvent({ code: 'TELEPORTED' })],
    ['event without id', withEvent({ id: '' })],
    ['event with numeric description', withEvent({ description: 42 })],
    ['event occurredAt without offset', withEvent({ occurredAt: '2026-02-21T03:00:00' })],
    ['event location without name', withEvent({ location: { code: 'CNSHA' } })],
    [
      'duplicate event ids',
      wireProcess({
        events: [
          {
            id: 'evt_1',
            code: 'GATE_IN',
            description: 'a',
            occurredAt: '2026-02-20T03:00:00Z',
            location: null,
          },
          {
            id: 'evt_1',
            code: 'LOADED',
            description: 'b',
            occurredAt: '2026-02-20T04:00:00Z',
            location: null,
          },
        ],
      }),
    ],
  ];

  it.each(malformedItems)('skips and logs an item with %s', (_case, item) => {
    const { items, messages } = parseOne(item);

    expect(items).toEqual([]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^Skipped upstream process/);
  });

  it('keeps the valid items of a page with malformed ones', () => {
    const logger = capturingLogger();
    const page = parseChangedProcessesPage(
      {
        items: [
          wireProcess({ numero: 'IMP-1' }),
          wireProcess({ numero: 'IMP-2', status: 'TELEPORTED' }),
          null,
          wireProcess({ numero: 'IMP-3' }),
        ],
        nextCursor: null,
      },
      logger,
    );

    expect(page.items.map((item) => item.numero)).toEqual(['IMP-1', 'IMP-3']);
    expect(logger.messages).toHaveLength(2);
  });

  it('logs the numero and the reason, never the payload', () => {
    const { messages } = parseOne(
      wireProcess({
        numero: 'IMP-2',
        status: 'TELEPORTED',
        customer: { id: 'acme', name: 'Secret Name Ltda' },
      }),
    );

    expect(messages[0]).toContain('"IMP-2"');
    expect(messages[0]).toContain('status');
    expect(messages[0]).not.toContain('TELEPORTED');
    expect(messages[0]).not.toContain('Secret Name');
  });

  it('does not echo an insane numero into the log', () => {
    const { messages } = parseOne(wireProcess({ numero: '<script>alert(1)</script>' }));

    expect(messages[0]).toContain('(no valid numero)');
    expect(messages[0]).not.toContain('script');
  });

  const malformedEnvelopes: Array<[string, unknown]> = [
    ['null', null],
    ['an array', []],
    ['a string', 'ok'],
    ['no items', { nextCursor: null }],
    ['items not an array', { items: { 0: wireProcess() }, nextCursor: null }],
    ['items null', { items: null, nextCursor: null }],
    ['no nextCursor', { items: [] }],
    ['numeric nextCursor', { items: [], nextCursor: 2 }],
    ['empty nextCursor', { items: [], nextCursor: '' }],
  ];

  it.each(malformedEnvelopes)('refuses a page that is %s', (_case, body) => {
    expect(() => parseChangedProcessesPage(body, capturingLogger())).toThrow(OperationsUnavailableError);
  });
});

describe('parseProcessDetail', () => {
  it('maps a valid detail into our types', () => {
    expect(parseProcessDetail(wireDetail())).toEqual({
      numero: 'IMP-2026-000123',
      parties: [
        { role: 'IMPORTER', name: 'ACME Importadora Ltda', taxId: '12.345.678/0001-95', country: 'BR' },
      ],
      shipment: {
        type: 'IMPORT',
        mode: 'SEA',
        incoterm: 'FOB',
        origin: { code: 'CNSHA', name: 'Shanghai' },
        destination: { code: 'BRSSZ', name: 'Santos' },
        shipmentDate: '2026-02-20',
        eta: '2026-03-25',
        arrivalDate: null,
        bookingNumber: 'MSC123456',
        masterBill: 'MEDU1234567',
        houseBill: 'HB-2026-0042',
        cargoDescription: 'Auto parts',
        packages: 120,
        grossWeightKg: 18250.5,
        volumeM3: 54.2,
      },
      containers: [
        {
          number: 'MSCU1234565',
          type: '40HC',
          sealNumber: 'SL123456',
          grossWeightKg: 9100,
          freeTimeEndsAt: null,
        },
      ],
      voyages: [
        {
          sequence: 1,
          vessel: 'MSC AURORA',
          voyageNumber: 'AU123W',
          carrier: 'MSC',
          loadPort: { code: 'CNSHA', name: 'Shanghai' },
          dischargePort: { code: 'BRSSZ', name: 'Santos' },
          etd: '2026-02-20T10:00:00Z',
          atd: null,
          eta: '2026-03-25T08:00:00Z',
          ata: null,
        },
      ],
    });
  });

  it('reads absent containers and voyages as empty and normalises values', () => {
    const detail = parseProcessDetail(
      wireDetail({
        containers: undefined,
        voyages: undefined,
        parties: [{ role: 'SHIPPER', name: ' Shanghai Parts Co ', taxId: '', country: 'cn' }],
      }),
    );

    expect(detail.containers).toEqual([]);
    expect(detail.voyages).toEqual([]);
    expect(detail.parties).toEqual([
      { role: 'SHIPPER', name: 'Shanghai Parts Co', taxId: null, country: 'CN' },
    ]);
  });

  const [voyage] = wireDetail().voyages as Json[];
  const shipment = wireDetail().shipment as Json;
  const malformedDetails: Array<[string, unknown]> = [
    ['null', null],
    ['an array', [wireDetail()]],
    ['missing numero', wireDetail({ numero: undefined })],
    ['missing parties', wireDetail({ parties: undefined })],
    [
      'unknown party role',
      wireDetail({ parties: [{ role: 'PIRATE', name: 'x', taxId: null, country: null }] }),
    ],
    ['bad country', wireDetail({ parties: [{ role: 'IMPORTER', name: 'x', taxId: null, country: 'BRA' }] })],
    ['missing shipment', wireDetail({ shipment: undefined })],
    ['negative packages', wireDetail({ shipment: { ...shipment, packages: -1 } })],
    ['fractional packages', wireDetail({ shipment: { ...shipment, packages: 1.5 } })],
    ['weight as a string', wireDetail({ shipment: { ...shipment, grossWeightKg: '18250.5' } })],
    ['impossible eta', wireDetail({ shipment: { ...shipment, eta: '2026-04-31' } })],
    ['containers not an array', wireDetail({ containers: {} })],
    [
      'bad container number',
      wireDetail({ containers: [{ number: 'ABC', type: null, sealNumber: null, grossWeightKg: null }] }),
    ],
    ['voyage etd without offset', wireDetail({ voyages: [{ ...voyage, etd: '2026-02-20T10:00:00' }] })],
    ['voyage sequence 0', wireDetail({ voyages: [{ ...voyage, sequence: 0 }] })],
    ['voyage without ports', wireDetail({ voyages: [{ ...voyage, loadPort: null }] })],
  ];

  it.each(malformedDetails)('refuses a detail that is %s', (_case, body) => {
    expect(() => parseProcessDetail(body)).toThrow(OperationsUnavailableError);
  });
});

describe(canonicalInstant.name, () => {
  it.each([
    ['2026-03-14T12:00:00Z', '2026-03-14T12:00:00Z'],
    ['2026-03-14T12:00:00.999Z', '2026-03-14T12:00:00Z'],
    ['2026-03-14T12:00:00.123456Z', '2026-03-14T12:00:00Z'],
    ['2026-03-14T23:30:00-03:00', '2026-03-15T02:30:00Z'],
  ])('%s is %s', (input, expected) => {
    expect(canonicalInstant(input)).toBe(expected);
  });
});

describe(isAcceptableNumero.name, () => {
  it.each(['IMP-2026-000123', 'exp.1', 'A_b-9'])('accepts %s', (value) => {
    expect(isAcceptableNumero(value)).toBe(true);
  });

  it.each(['', '.', '..', '../admin', 'a/b', 'a%2Fb', 'a b', 'é', 'X'.repeat(41)])('refuses %s', (value) => {
    expect(isAcceptableNumero(value)).toBe(false);
  });
});
