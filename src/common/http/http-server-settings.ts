import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Request, Response } from 'express';
import { InvalidRequestException, type ProblemDefinition } from '../problems/problem.exception.js';
import { PROBLEM_TYPES, type ProblemType } from '../problems/problem-types.js';

export interface HttpServerTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How often Node looks for requests past the first two: they fire up to this much late. */
  checkIntervalMs: number;
}

/**
 * Node's HTTP server limits, set on purpose. Bodies are at most 16 KiB, so a request that takes
 * longer than these to arrive is a slow-loris, not a client; idle keep-alive connections outlive
 * the 60 s idle timeout of common load balancers, so the balancer, not the service, closes them.
 */
export const HTTP_SERVER_TIMEOUTS: Readonly<HttpServerTimeouts> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  checkIntervalMs: 1000,
};

/**
 * Nest's Express adapter on an HTTP server created with the service's limits. Node reads how often
 * it checks the header and request timeouts (`connectionsCheckingInterval`, 30 s by default) only
 * from the options the server is created with, and Nest creates it without any: a 10 s header
 * limit fired after up to 40 s. Node's own check for `Host` is off, because it answers an empty
 * 400; {@link requireHostHeader} answers problem+json instead.
 */
export class ServiceExpressAdapter extends ExpressAdapter {
  constructor(private readonly timeouts: HttpServerTimeouts = HTTP_SERVER_TIMEOUTS) {
    super();
  }

  override initHttpServer(): void {
    const app = this.getInstance<Express>();
    this.httpServer = createServer(
      {
        headersTimeout: this.timeouts.headersTimeoutMs,
        requestTimeout: this.timeouts.requestTimeoutMs,
        keepAliveTimeout: this.timeouts.keepAliveTimeoutMs,
        connectionsCheckingInterval: this.timeouts.checkIntervalMs,
        requireHostHeader: false,
        ...messagesBornExpress(app),
      },
      app,
    );
  }

  /**
   * Bytes go out as they are: JSON pages arrive here encoded once, ready for the socket, and
   * Nest would send any object, a Buffer included, through `JSON.stringify`. A plain request gets
   * them straight from `end`: Express's `send` would only look again for what the handler settled
   * (the type, an ETag, freshness). A conditional request, or a status without a body, still goes
   * through `send`, which answers and strips them as HTTP says.
   */
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!Buffer.isBuffer(body)) return super.reply(response, body, statusCode);
    if (statusCode !== undefined) response.status(statusCode);
    if (isConditional(response.req) || BODILESS_STATUSES.has(response.statusCode)) return response.send(body);
    if (!response.hasHeader('Content-Type')) response.setHeader('Content-Type', 'application/octet-stream');
    response.setHeader('Content-Length', body.length);
    return response.end(body);
  }
}

const BODILESS_STATUSES = new Set([204, 304]);

/**
 * Request and response classes whose instances Node creates with the prototypes Express gives
 * them, so that the prototype swap Express makes on every request (`Object.setPrototypeOf` in
 * `app.handle`) finds them in place and changes nothing. Swapped, each request and response was
 * migrated by V8 to a new shape, and what that allocated kept the request's objects alive through
 * the young generation's collections: a quarter of what a request allocated was promoted to the
 * old one and collected there, on the GC threads (docs/performance.md).
 */
function messagesBornExpress(app: Express) {
  class ExpressRequest extends IncomingMessage {}
  class ExpressResponse extends ServerResponse {}
  Object.setPrototypeOf(ExpressRequest.prototype, app.request);
  Object.setPrototypeOf(ExpressResponse.prototype, app.response);
  app.request = ExpressRequest.prototype as unknown as Request;
  app.response = ExpressResponse.prototype as unknown as Response;
  return { IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse };
}

function isConditional(request: IncomingMessage): boolean {
  return request.headers['if-none-match'] !== undefined || request.headers['if-modified-since'] !== undefined;
}

/** HTTP/1.1 requires `Host` (RFC 9112 §3.2); HTTP/1.0 may leave it out. */
export function requireHostHeader(
  request: IncomingMessage,
  _response: ServerResponse,
  next: (error?: unknown) => void,
): void {
  if (request.httpVersion !== '1.1' || request.headers.host !== undefined) return next();
  next(new InvalidRequestException([{ in: 'header', name: 'Host', message: 'is required in HTTP/1.1' }]));
}

/** What Node's parser refuses, by its error code, and how we answer it. */
const PARSER_REFUSALS: Record<string, ProblemType> = {
  HPE_HEADER_OVERFLOW: PROBLEM_TYPES.headersTooLarge,
  ERR_HTTP_REQUEST_TIMEOUT: PROBLEM_TYPES.requestTimeout,
};

export interface ClientErrorCounter {
  clientErrorAnswered(status: number): void;
}

/**
 * Answers what Node refuses before any routing (a malformed request line, headers over the limit,
 * a request too slow to arrive, an `Expect` it cannot meet, a `CONNECT`) as every other error is
 * answered: problem+json with an `X-Request-Id`, logged and counted.
 */
export function configureHttpServer(server: Server, counter: ClientErrorCounter): void {
  const logger = new Logger('HttpServer');
  const unanswered = unansweredRequests(server);
  const refused = new WeakSet<Duplex>();

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The peer went away: there is nobody to answer.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    // The parser stays in error: more bytes from the peer would raise it again.
    if (refused.has(socket)) return;
    refused.add(socket);
    const problem = PARSER_REFUSALS[error.code ?? ''] ?? PROBLEM_TYPES.invalidRequest;
    const requestId = randomUUID();
    logger.warn(
      { requestId, code: error.code, status: problem.status },
      `request refused by the HTTP parser`,
    );
    counter.clientErrorAnswered(problem.status);
    const answer = () => {
      if (socket.writable) socket.end(rawProblemResponse(problem, requestId, parserDetail(problem, server)));
    };
    const inFlight = unanswered.of(socket);
    if (inFlight.every(({ request }) => request.complete)) {
      // Pipelined requests before the refused one keep their answers: the refusal comes after them.
      unanswered.whenAnswered(socket, answer);
    } else if (inFlight.some(({ response }) => response.headersSent)) {
      // A request whose body stopped arriving, already being answered: no room for another answer.
      socket.destroy();
    } else {
      // A request whose body stopped arriving: it will never be answered otherwise.
      answer();
    }
  });

  // A tunnel request: Node hands over the socket, and without this listener drops it unanswered.
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    const requestId = randomUUID();
    logger.warn({ requestId, method: 'CONNECT', status: 405 }, 'request refused before routing');
    counter.clientErrorAnswered(405);
    socket.on('error', () => socket.destroy());
    socket.end(
      rawProblemResponse(
        PROBLEM_TYPES.methodNotAllowed,
        requestId,
        'CONNECT is not supported: this service is not a proxy',
        { Allow: 'GET, HEAD, POST, OPTIONS' },
      ),
    );
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

interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
}

/** The requests of each connection not answered yet, and what waits for them to be. */
function unansweredRequests(server: Server) {
  const pending = new WeakMap<Duplex, { exchanges: Set<Exchange>; then: Array<() => void> }>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const entry = pending.get(request.socket) ?? { exchanges: new Set<Exchange>(), then: [] };
    pending.set(request.socket, entry);
    const exchange = { request, response };
    entry.exchanges.add(exchange);
    response.once('close', () => {
      entry.exchanges.delete(exchange);
      if (entry.exchanges.size === 0) for (const run of entry.then.splice(0)) run();
    });
  });
  return {
    of: (socket: Duplex): Exchange[] => [...(pending.get(socket)?.exchanges ?? [])],
    whenAnswered(socket: Duplex, run: () => void): void {
      const entry = pending.get(socket);
      if (entry === undefined || entry.exchanges.size === 0) run();
      else entry.then.push(run);
    },
  };
}

function parserDetail(problem: ProblemType, server: Server): string {
  switch (problem) {
    case PROBLEM_TYPES.headersTooLarge:
      return 'The request headers are larger than the server accepts';
    case PROBLEM_TYPES.requestTimeout:
      return `The request did not arrive in time (its headers within ${server.headersTimeout / 1000} s, all of it within ${server.requestTimeout / 1000} s)`;
    default:
      return 'The request is not valid HTTP';
  }
}

function problemHeaders(requestId: string): Record<string, string> {
  return { 'Content-Type': 'application/problem+json', 'X-Request-Id': requestId, Connection: 'close' };
}

function problemBody(problem: ProblemDefinition, requestId: string, detail: string): string {
  return JSON.stringify({
    type: problem.type,
    title: problem.title,
    status: problem.status,
    detail,
    requestId,
  });
}

/** A whole HTTP/1.1 response written to a socket the parser has given up on. */
function rawProblemResponse(
  problem: ProblemDefinition,
  requestId: string,
  detail: string,
  extraHeaders: Record<string, string> = {},
): string {
  const body = problemBody(problem, requestId, detail);
  const headers = {
    ...problemHeaders(requestId),
    ...extraHeaders,
    'Content-Length': String(Buffer.byteLength(body)),
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${problem.status} ${problem.title}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}
