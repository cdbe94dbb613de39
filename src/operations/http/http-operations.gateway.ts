import { HttpService } from '@nestjs/axios';
import { Logger } from '@nestjs/common';
import type { AxiosResponse } from 'axios';
import { firstValueFrom } from 'rxjs';
import { AppConfig } from '../../config/app.config.js';
import { OperationsGateway, type OperationsAttempt } from '../operations.gateway.js';
import type {
  ChangedProcessesPage,
  ChangedProcessesQuery,
  OperationsProcessDetail,
} from '../operations.types.js';
import { UpstreamAttemptError } from '../resilience/upstream-attempt.error.js';
import { attemptErrorFromRequest, attemptErrorFromStatus } from './http-attempt-errors.js';
import { isAcceptableNumero, parseChangedProcessesPage, parseProcessDetail } from './operations-payload.js';

/**
 * A whole page of processes with every follow-up event is well under 1 MiB; 5 MiB leaves room
 * for growth while keeping a runaway or hostile upstream from filling the heap.
 */
export const MAX_UPSTREAM_RESPONSE_BYTES = 5 * 1024 * 1024;

interface UpstreamAnswer {
  status: number;
  body: string;
}

/**
 * The {@link OperationsGateway} adapter over the operations system's HTTP API: one attempt per
 * call. Retries, timeouts, the circuit breaker and the bulkhead are the
 * `ResilientOperationsGateway`'s, which the operations module wraps around it; it hands each
 * attempt an abort signal, and this adapter reports a failed attempt as a classified
 * {@link UpstreamAttemptError}.
 *
 * Only two idempotent GETs on fixed path templates; the numero is checked and encoded, absolute
 * URLs and redirects are refused, bodies are capped. The answer is parsed and validated within
 * the attempt, so an unusable one is a failed attempt like any other.
 */
export class HttpOperationsGateway extends OperationsGateway {
  private readonly logger = new Logger(HttpOperationsGateway.name);
  private readonly baseUrl: string;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly http: HttpService,
    config: AppConfig,
  ) {
    super();
    const { baseUrl, apiKey } = config.operations;
    if (baseUrl === null) {
      throw new Error('HttpOperationsGateway needs OPERATIONS_BASE_URL');
    }
    this.baseUrl = baseUrl;
    this.headers = { Accept: 'application/json', ...(apiKey === null ? {} : { 'X-Api-Key': apiKey }) };
    if (apiKey === null) {
      this.logger.warn('OPERATIONS_API_KEY is not set; calling the operations system without a key');
    }
  }

  async getProcessDetail(
    numero: string,
    attempt?: OperationsAttempt,
  ): Promise<OperationsProcessDetail | null> {
    // The service validates numeros already; this keeps the path template closed regardless.
    if (!isAcceptableNumero(numero)) {
      this.logger.warn('Refused to ask the operations system for a numero outside the contract');
      return null;
    }
    const answer = await this.get('getProcessDetail', `processes/${encodeURIComponent(numero)}`, {}, attempt);
    if (answer.status === 404) return null;
    const detail = parseProcessDetail(parseJson(answer.body));
    if (detail.numero.toUpperCase() !== numero.toUpperCase()) {
      throw UpstreamAttemptError.payload('Operations system answered with another process');
    }
    return detail;
  }

  async listChangedProcesses(
    query: ChangedProcessesQuery,
    attempt?: OperationsAttempt,
  ): Promise<ChangedProcessesPage> {
    const params = { updatedSince: query.updatedSince, cursor: query.cursor, limit: query.limit };
    const answer = await this.get('listChangedProcesses', 'processes', params, attempt);
    return parseChangedProcessesPage(parseJson(answer.body), this.logger);
  }

  /** One request. Settles with an answer the caller can use, or an {@link UpstreamAttemptError}. */
  private async get(
    operation: 'getProcessDetail' | 'listChangedProcesses',
    path: string,
    params: Record<string, string | number | null>,
    attempt: OperationsAttempt | undefined,
  ): Promise<UpstreamAnswer> {
    const signal = attempt?.signal;
    let response: AxiosResponse<string>;
    try {
      response = await firstValueFrom(
        this.http.get<string>(path, {
          baseURL: this.baseUrl,
          allowAbsoluteUrls: false,
          params,
          headers: this.headers,
          signal,
          maxRedirects: 0,
          maxContentLength: MAX_UPSTREAM_RESPONSE_BYTES,
          maxBodyLength: MAX_UPSTREAM_RESPONSE_BYTES,
          // Raw text: axios would otherwise hand back unparseable JSON silently as a string.
          responseType: 'text',
          transformResponse: (data: unknown) => data,
          validateStatus: () => true,
        }),
      );
    } catch (error) {
      const failure = attemptErrorFromRequest(error, signal?.aborted ?? false);
      // axios stops reading at the cap and aborts the rest.
      if (failure.kind === 'too-large') attempt?.countResponseBytes(MAX_UPSTREAM_RESPONSE_BYTES);
      throw failure;
    }
    const { status } = response;
    const body = typeof response.data === 'string' ? response.data : '';
    attempt?.countResponseBytes(Buffer.byteLength(body));
    if ((status >= 200 && status < 300) || (status === 404 && operation === 'getProcessDetail')) {
      return { status, body };
    }
    throw attemptErrorFromStatus(status);
  }
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw UpstreamAttemptError.payload('Operations system sent a body that is not JSON');
  }
}
