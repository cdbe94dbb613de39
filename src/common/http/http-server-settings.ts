import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger } from '@nestjs/common';
import { PROBLEM_TYPES, type ProblemType } from '../problems/problem-types.js';

/**
 * Node's HTTP server limits, set on purpose. Bodies are at most 16 KiB, so a request that takes
 * longer than these to arrive is a slow-loris, not a client; idle keep-alive connections outlive
 * the 60 s idle timeout of common load balancers, so the balancer, not the service, closes them.
 */
export const HTTP_SERVER_TIMEOUTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
} as const;

/** What Node's parser refuses, by its error code, and how we answer it. */
const PARSER_REFUSALS: Record<string, ProblemType> = {
  HPE_HEADER_OVERFLOW: PROBLEM_TYPES.headersTooLarge,
  ERR_HTTP_REQUEST_TIMEOUT: PROBLEM_TYPES.requestTimeout,
};

export interface ClientErrorCounter {
  clientErrorAnswered(status: number): void;
}

/**
 * Sets the server's timeouts and answers what Node refuses before any routing (a malformed request
 * line, headers over the limit, a request too slow to arrive, an `Expect` it cannot meet) as every
 * other error is answered: problem+json with an `X-Request-Id`, logged and counted.
 */
export function configureHttpServer(server: Server, counter: ClientErrorCounter): void {
  const logger = new Logger('HttpServer');
  server.headersTimeout = HTTP_SERVER_TIMEOUTS.headersTimeoutMs;
  server.requestTimeout = HTTP_SERVER_TIMEOUTS.requestTimeoutMs;
  server.keepAliveTimeout = HTTP_SERVER_TIMEOUTS.keepAliveTimeoutMs;

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The peer went away: there is nobody to answer.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const problem = PARSER_REFUSALS[error.code ?? ''] ?? PROBLEM_TYPES.invalidRequest;
    const requestId = randomUUID();
    logger.warn(
      { requestId, code: error.code, status: problem.status },
      `request refused by the HTTP parser`,
    );
    counter.clientErrorAnswered(problem.status);
    socket.end(rawProblemResponse(problem, requestId, parserDetail(problem)));
  });

  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const requestId = randomUUID();
    counter.clientErrorAnswered(417);
    const body = problemBody(
      PROBLEM_TYPES.expectationFailed,
      requestId,
      `Expect: ${request.headers.expect} is not supported`,
    );
    response.writeHead(417, { ...problemHeaders(requestId), 'Content-Length': Buffer.byteLength(body) });
    response.end(body);
  });
}

function parserDetail(problem: ProblemType): string {
  switch (problem) {
    case PROBLEM_TYPES.headersTooLarge:
      return 'The request headers are larger than the server accepts';
    case PROBLEM_TYPES.requestTimeout:
      return `The request did not arrive within ${HTTP_SERVER_TIMEOUTS.requestTimeoutMs / 1000} s`;
    default:
      return 'The request is not valid HTTP';
  }
}

function problemHeaders(requestId: string): Record<string, string> {
  return { 'Content-Type': 'application/problem+json', 'X-Request-Id': requestId, Connection: 'close' };
}

function problemBody(problem: ProblemType, requestId: string, detail: string): string {
  return JSON.stringify({
    type: problem.type,
    title: problem.title,
    status: problem.status,
    detail,
    requestId,
  });
}

/** A whole HTTP/1.1 response written to a socket the parser has given up on. */
function rawProblemResponse(problem: ProblemType, requestId: string, detail: string): string {
  const body = problemBody(problem, requestId, detail);
  const headers = { ...problemHeaders(requestId), 'Content-Length': String(Buffer.byteLength(body)) };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${problem.status} ${problem.title}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}
