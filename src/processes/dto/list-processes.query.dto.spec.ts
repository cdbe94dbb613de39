import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { aListCriteria } from '../../testing/list-criteria.factory.js';
import { unmappedParameters } from '../../testing/query-parameter-mapping.js';
import { ListProcessesQueryDto } from './list-processes.query.dto.js';

const queryOf = (parameters: Record<string, string | string[]>) =>
  plainToInstance(ListProcessesQueryDto, parameters);
const invalidIn = (parameters: Record<string, string | string[]>) =>
  validateSync(queryOf(parameters), { forbidUnknownValues: true }).map((error) => error.property);

describe(ListProcessesQueryDto.name, () => {
  describe('toCriteria', () => {
    it('defaults to the first page of 20, newest update first, no filter', () => {
      expect(queryOf({}).toCriteria()).toEqual(aListCriteria());
    });

    it('reads lists case-insensitively, trimmed, without repeats', () => {
      const sut = queryOf({
        status: 'in_transit, Arrived,IN_TRANSIT',
        type: 'export',
        mode: 'sea,AIR',
        customsChannel: 'none,Red',
      });

      expect(sut.toCriteria()).toMatchObject({
        statuses: ['IN_TRANSIT', 'ARRIVED'],
        types: ['EXPORT'],
        modes: ['SEA', 'AIR'],
        customsChannels: ['NONE', 'RED'],
      });
    });

    it('reads a repeated list parameter, comma-separated occurrences included, as one list', () => {
      const sut = queryOf({
        status: ['open', 'ARRIVED,open'],
        mode: ['SEA'],
        customsChannel: ['none', 'red'],
      });

      expect(sut.toCriteria()).toMatchObject({
        statuses: ['OPEN', 'ARRIVED'],
        modes: ['SEA'],
        customsChannels: ['NONE', 'RED'],
      });
    });

    it('turns update bounds into a half-open range: a date is its whole UTC day, an instant itself', () => {
      expect(queryOf({ updatedFrom: '2026-03-01', updatedTo: '2026-03-02' }).toCriteria()).toMatchObject({
        updatedFrom: new Date('2026-03-01T00:00:00Z'),
        updatedBefore: new Date('2026-03-03T00:00:00Z'),
      });
      expect(
        queryOf({ updatedFrom: '2026-03-01T09:00:00-03:00', updatedTo: '2026-03-01T12:00:00Z' }).toCriteria(),
      ).toMatchObject({
        updatedFrom: new Date('2026-03-01T12:00:00Z'),
        updatedBefore: new Date('2026-03-01T12:00:00.001Z'),
      });
    });

    it('normalises a container number and keeps pages, shipment dates and sort as given', () => {
      expect(
        queryOf({
          container: 'mscu 123456-6',
          page: '3',
          pageSize: '50',
          shipmentFrom: '2026-01-01',
          shipmentTo: '2026-01-31',
          sort: 'numero',
        }).toCriteria(),
      ).toMatchObject({
        container: 'MSCU1234566',
        page: 3,
        pageSize: 50,
        shipmentFrom: '2026-01-01',
        shipmentTo: '2026-01-31',
        sort: 'numero',
      });
    });

    it('keeps the arrival bounds as dates and the delay as a number of days', () => {
      expect(
        queryOf({
          etaFrom: '2026-03-01',
          etaTo: '2026-03-07',
          freeTimeEndsFrom: '2026-03-02',
          freeTimeEndsTo: '2026-03-04',
          delayedByDays: '3',
          sort: '-freeTimeEndsAt',
        }).toCriteria(),
      ).toMatchObject({
        etaFrom: '2026-03-01',
        etaTo: '2026-03-07',
        freeTimeEndsFrom: '2026-03-02',
        freeTimeEndsTo: '2026-03-04',
        delayedByDays: 3,
        sort: '-freeTimeEndsAt',
      });
    });
  });

  it('maps every parameter it validates into the criteria', () => {
    const samples = {
      page: '2',
      pageSize: '50',
      status: 'OPEN',
      type: 'IMPORT',
      mode: 'SEA',
      customsChannel: 'RED',
      shipmentFrom: '2026-03-01',
      shipmentTo: '2026-03-02',
      updatedFrom: '2026-03-01',
      updatedTo: '2026-03-02',
      container: 'MSCU1234566',
      etaFrom: '2026-03-01',
      etaTo: '2026-03-02',
      freeTimeEndsFrom: '2026-03-01',
      freeTimeEndsTo: '2026-03-02',
      delayedByDays: '3',
      sort: 'numero',
    };

    expect(unmappedParameters(ListProcessesQueryDto, samples, (query) => query.toCriteria())).toEqual([]);
  });

  describe('validation', () => {
    it('accepts what the contract allows', () => {
      expect(
        invalidIn({ type: 'Import', mode: 'ROAD', customsChannel: 'GRAY,NONE', status: 'OPEN' }),
      ).toEqual([]);
    });

    it.each([
      [{ type: 'IMPORT,EXPORT' }, 'type'],
      [{ type: 'SEA' }, 'type'],
      [{ mode: 'BOAT' }, 'mode'],
      [{ mode: 'SEA,' }, 'mode'],
      [{ customsChannel: 'BLUE' }, 'customsChannel'],
      [{ customsChannel: ['RED', 'BLUE'] }, 'customsChannel'],
      [{ type: ['IMPORT', 'EXPORT'] }, 'type'],
      [{ status: '' }, 'status'],
      [{ updatedFrom: '2026-03-05', updatedTo: '2026-03-04T23:59:59Z' }, 'updatedTo'],
      [{ container: 'MSCU1234567' }, 'container'],
    ])('refuses %j, naming %s', (parameters, name) => {
      expect(invalidIn(parameters)).toEqual([name]);
    });
  });
});
