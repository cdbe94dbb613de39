import { jest } from '@jest/globals';
import type { AuthenticatedUser } from '../domain/authenticated-user.js';
import { JsonText } from '../common/http/json-text.js';
import { ProblemException } from '../common/problems/problem.exception.js';
import { OperationsUnavailableError } from '../operations/operations.gateway.js';
import type { OperationsProcessDetail, Shipment } from '../operations/operations.types.js';
import type { CustomsDeclaration } from '../domain/customs-declaration.js';
import type { ProcessSummaryDto } from './dto/process-summary.response.dto.js';
import type { ProcessEnrichmentService } from './enrichment/process-enrichment.service.js';
import { aListCriteria } from '../testing/list-criteria.factory.js';
import type { ProcessesRepository } from './processes.repository.js';
import { ProcessVisibility } from '../visibility/process-visibility.js';
import { ProcessesService } from './processes.service.js';

const customer: AuthenticatedUser = {
  id: 'u1',
  username: 'acme',
  role: 'customer',
  customerIds: ['c1', 'c2'],
};
const staff: AuthenticatedUser = { id: 'u2', username: 'ops', role: 'staff', customerIds: [] };

const criteria = aListCriteria({ page: 2, pageSize: 10 });

const summary = { numero: 'IMP-1', status: 'OPEN' } as unknown as ProcessSummaryDto;

describe(ProcessesService.name, () => {
  let repository: {
    list: jest.Mock<ProcessesRepository['list']>;
    findVisible: jest.Mock<ProcessesRepository['findVisible']>;
  };
  let enrichment: { enrich: jest.Mock<ProcessEnrichmentService['enrich']> };
  let sut: ProcessesService;

  beforeEach(() => {
    repository = { list: jest.fn(), findVisible: jest.fn() };
    enrichment = { enrich: jest.fn() };
    sut = new ProcessesService(
      repository as unknown as ProcessesRepository,
      enrichment as unknown as ProcessEnrichmentService,
      new ProcessVisibility(),
    );
  });

  describe('list', () => {
    it("reads within the customer's own customers and pages the total", async () => {
      repository.list.mockResolvedValue({
        items: JsonText.array([JsonText.of('{"numero":"IMP-1"}')]),
        totalItems: 21,
      });

      const page = await sut.list(criteria, customer);

      expect(repository.list).toHaveBeenCalledWith(criteria, { customerIds: ['c1', 'c2'] });
      expect(page.meta).toEqual({ page: 2, pageSize: 10, totalItems: 21, totalPages: 3 });
      expect(page.body.parse()).toEqual({ data: [{ numero: 'IMP-1' }], meta: page.meta });
    });

    it('lets staff read every customer', async () => {
      repository.list.mockResolvedValue({ items: JsonText.array([]), totalItems: 0 });

      const page = await sut.list(criteria, staff);

      expect(repository.list).toHaveBeenCalledWith(criteria, { customerIds: null });
      expect(page.meta.totalPages).toBe(0);
    });
  });

  describe('detail', () => {
    const detail = { numero: 'IMP-1', parties: [], shipment: {} as Shipment, containers: [], voyages: [] };

    it('is not found, without asking the operations system, when the process is not visible', async () => {
      repository.findVisible.mockResolvedValue(null);

      await expect(sut.detail('IMP-1', customer)).rejects.toMatchObject({ problem: { status: 404 } });
      expect(enrichment.enrich).not.toHaveBeenCalled();
    });

    it('merges the stored summary with the live detail, leaving out empty lists and absent customs', async () => {
      repository.findVisible.mockResolvedValue({ summary, customs: null, etaHistory: [] });
      enrichment.enrich.mockResolvedValue({ detail, status: 'FRESH', fetchedAt: '2026-03-01T00:00:00Z' });

      const result = await sut.detail('imp-1', customer);

      expect(enrichment.enrich).toHaveBeenCalledWith('IMP-1');
      expect(result).toEqual({
        ...summary,
        parties: [],
        shipment: {},
        etaHistory: [],
        enrichment: { status: 'FRESH', fetchedAt: '2026-03-01T00:00:00Z' },
      });
    });

    it.each([
      ['a customer, within its own customers', customer, { customerIds: ['c1', 'c2'] }],
      ['staff, within every customer', staff, { customerIds: null }],
    ])('looks the process up for %s', async (_case, user, visibility) => {
      repository.findVisible.mockResolvedValue(null);

      await expect(sut.detail('IMP-1', user)).rejects.toMatchObject({ problem: { status: 404 } });

      expect(repository.findVisible).toHaveBeenCalledWith('IMP-1', visibility);
    });

    it('includes containers, voyages and customs when there are some, the ETA history, enrichment last', async () => {
      const containers = [{ number: 'MSCU1234565' }] as OperationsProcessDetail['containers'];
      const voyages = [{ vessel: 'MSC Aurora' }] as OperationsProcessDetail['voyages'];
      const customs = { channel: 'GREEN' } as CustomsDeclaration;
      const etaHistory = [{ eta: '2026-03-25', recordedAt: '2026-02-20T10:05:00Z' }];
      repository.findVisible.mockResolvedValue({ summary, customs, etaHistory });
      enrichment.enrich.mockResolvedValue({
        detail: { ...detail, containers, voyages },
        status: 'STALE',
        fetchedAt: '2026-03-01T00:00:00Z',
      });

      const result = await sut.detail('IMP-1', customer);

      expect(result).toEqual({
        ...summary,
        parties: [],
        shipment: {},
        containers,
        voyages,
        customs,
        etaHistory,
        enrichment: { status: 'STALE', fetchedAt: '2026-03-01T00:00:00Z' },
      });
      expect(Object.keys(result).at(-1)).toBe('enrichment');
    });

    it('is not found when the operations system does not know the process', async () => {
      repository.findVisible.mockResolvedValue({ summary, customs: null, etaHistory: [] });
      enrichment.enrich.mockResolvedValue(null);

      await expect(sut.detail('IMP-1', customer)).rejects.toMatchObject({ problem: { status: 404 } });
    });

    it('answers 503 with Retry-After when the operations system is unavailable', async () => {
      repository.findVisible.mockResolvedValue({ summary, customs: null, etaHistory: [] });
      enrichment.enrich.mockRejectedValue(new OperationsUnavailableError('down'));

      const error = await sut.detail('IMP-1', customer).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(ProblemException);
      expect((error as ProblemException).problem.status).toBe(503);
      expect((error as ProblemException).problemOptions.headers).toEqual({ 'Retry-After': '30' });
      expect((error as ProblemException).problem.type).toBe('/problems/operations-unavailable');
    });

    it('passes any other failure on as it is, not as a 503', async () => {
      const bug = new TypeError('not an outage');
      repository.findVisible.mockResolvedValue({ summary, customs: null, etaHistory: [] });
      enrichment.enrich.mockRejectedValue(bug);

      await expect(sut.detail('IMP-1', customer)).rejects.toBe(bug);
    });
  });
});
