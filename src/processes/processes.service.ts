import { Injectable, Logger } from '@nestjs/common';
import type { AuthenticatedUser } from '../domain/authenticated-user.js';
import { JsonText } from '../common/http/json-text.js';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { OperationsUnavailableError } from '../operations/operations.gateway.js';
import { ProcessVisibility } from '../visibility/process-visibility.js';
import type { ProcessDetailResponseDto } from './dto/process-detail.response.dto.js';
import type { PageMetaDto, ProcessListResponseDto } from './dto/process-summary.response.dto.js';
import { ProcessEnrichmentService } from './enrichment/process-enrichment.service.js';
import type { ProcessListCriteria } from './process-list.criteria.js';
import { ProcessesRepository } from './processes.repository.js';

export interface ProcessListPage {
  body: JsonText<ProcessListResponseDto>;
  meta: PageMetaDto;
}

/** How long a client should wait after a 503 before asking again. */
const OPERATIONS_RETRY_AFTER_S = 30;

@Injectable()
export class ProcessesService {
  private readonly logger = new Logger(ProcessesService.name);

  constructor(
    private readonly repository: ProcessesRepository,
    private readonly enrichment: ProcessEnrichmentService,
    private readonly visibility: ProcessVisibility,
  ) {}

  /** The page as the JSON text sent (its items arrive rendered), and its `meta` for the links. */
  async list(criteria: ProcessListCriteria, user: AuthenticatedUser): Promise<ProcessListPage> {
    const { items, totalItems } = await this.repository.list(criteria, this.visibility.of(user));
    const meta: PageMetaDto = {
      page: criteria.page,
      pageSize: criteria.pageSize,
      totalItems,
      totalPages: Math.ceil(totalItems / criteria.pageSize),
    };
    return { body: JsonText.object<ProcessListResponseDto>({ data: items, meta }), meta };
  }

  /** Visibility is settled in the database before the operations system is asked anything. */
  async detail(numero: string, user: AuthenticatedUser): Promise<ProcessDetailResponseDto> {
    const stored = await this.repository.findVisible(numero, this.visibility.of(user));
    if (stored === null) throw notFound(numero);
    const { summary: process, customs, etaHistory } = stored;

    const enrichment = await this.enrichment.enrich(process.numero).catch((error: unknown) => {
      if (!(error instanceof OperationsUnavailableError)) throw error;
      throw new ProblemException(PROBLEM_TYPES.operationsUnavailable, {
        detail: 'The operations system is unavailable and no recent copy of this process is cached',
        headers: { 'Retry-After': String(OPERATIONS_RETRY_AFTER_S) },
        cause: error,
      });
    });
    if (enrichment === null) {
      this.logger.warn(`Process ${process.numero} is stored here but unknown to the operations system`);
      throw notFound(numero);
    }
    const { parties, shipment, containers, voyages } = enrichment.detail;
    return {
      ...process,
      parties,
      shipment,
      ...(containers.length > 0 && { containers }),
      ...(voyages.length > 0 && { voyages }),
      ...(customs !== null && { customs }),
      etaHistory,
      enrichment: { status: enrichment.status, fetchedAt: enrichment.fetchedAt },
    };
  }
}

function notFound(numero: string): ProblemException {
  return new ProblemException(PROBLEM_TYPES.notFound, { detail: `Process ${numero} was not found` });
}
