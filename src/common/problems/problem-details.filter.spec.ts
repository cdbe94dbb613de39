import { jest } from '@jest/globals';
import { BadRequestException, ForbiddenException, Logger, NotFoundException } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { requestIdMiddleware } from '../http/request-id.js';
import { RouteTable } from '../http/route-table.js';
import { type Outage, OutageClassifier } from './outage-classifier.js';
import { ProblemDetailsFilter } from './problem-details.filter.js';
import { InvalidRequestException, ProblemException } from './problem.exception.js';
import { PROBLEM_TYPES } from './problem-types.js';

class FakeResponse {
  statusCode = 200;
  headers: Record<string, string> = {};
  contentType: string | undefined;
  body: string | undefined;
  headersSent = false;

  status(code: number): this {
    this.statusCode = code;
    return this;
  }
  setHeader(name: string, value: string): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }
  type(value: string): this {
    this.contentType = value;
    return this;
  }
  send(body: string): this {
    this.body = body;
    this.headersSent = true;
    return this;
  }
  json(): Record<string, unknown> {
    return JSON.parse(this.body ?? 'null') as Record<string, unknown>;
  }
}

class FakeRouteTable extends RouteTable {
  constructor(private readonly methodsByPath: Record<string, string[]> = {}) {
    super({} as HttpAdapterHost);
  }
  override allowedMethods(path: string): string[] {
    return this.methodsByPath[path] ?? [];
  }
}

function fakeRequest(method: string, url: string): Request {
  const request = {
    method,
    originalUrl: url,
    path: url.split('?')[0],
    headers: { 'x-request-id': 'req-1' },
  } as unknown as Request;
  requestIdMiddleware(request, new FakeResponse() as unknown as Response, () => {});
  return request;
}

function hostFor(request: Request, response: FakeResponse): ArgumentsHost {
  return {
    switchToHttp: () => ({
      getRequest: () => request,
      getResponse: () => response,
      getNext: () => undefined,
    }),
  } as unknown as ArgumentsHost;
}

/** Recognises errors carrying `outage: true`, as a dependency's module would recognise its own. */
class FakeOutageClassifier extends OutageClassifier {
  classify(error: unknown): Outage | null {
    return (error as { outage?: unknown } | null)?.outage === true
      ? { detail: 'The dependency is down', retryAfterSeconds: 5 }
      : null;
  }
}

describe(ProblemDetailsFilter.name, () => {
  let sut: ProblemDetailsFilter;
  let logged: ReturnType<typeof jest.spyOn>;

  beforeEach(() => {
    sut = new ProblemDetailsFilter(
      new FakeRouteTable({ '/api/auth/login': ['POST'] }),
      new FakeOutageClassifier(),
    );
    logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => {});
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  function answer(exception: unknown, method = 'GET', url = '/api/processes?page=1'): FakeResponse {
    const response = new FakeResponse();
    sut.catch(exception, hostFor(fakeRequest(method, url), response));
    return response;
  }

  it('shapes a ProblemException with its detail, headers, extensions and the problem+json type', () => {
    const response = answer(
      new ProblemException(PROBLEM_TYPES.rateLimited, {
        detail: 'Slow down',
        headers: { 'Retry-After': '30' },
        extensions: { retryAfterSeconds: 30 },
      }),
    );

    expect(response.statusCode).toBe(429);
    expect(response.contentType).toBe('application/problem+json');
    expect(response.headers).toEqual({ 'retry-after': '30' });
    expect(response.json()).toEqual({
      type: '/problems/rate-limited',
      title: 'Too many requests',
      status: 429,
      detail: 'Slow down',
      instance: '/api/processes?page=1',
      requestId: 'req-1',
      retryAfterSeconds: 30,
    });
    expect(logged).not.toHaveBeenCalled();
  });

  it('leaves detail out when the problem has none', () => {
    expect(answer(new ProblemException(PROBLEM_TYPES.notFound)).json()).not.toHaveProperty('detail');
  });

  it('lists the offending fields of an InvalidRequestException in errors', () => {
    const errors = [
      { in: 'query' as const, name: 'pageSize', message: 'must be an integer between 1 and 100' },
      { in: 'query' as const, name: 'sort', message: 'must be one of updatedAt, -updatedAt' },
    ];

    const response = answer(new InvalidRequestException(errors));

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      type: '/problems/invalid-request',
      status: 400,
      detail: 'pageSize must be an integer between 1 and 100; sort must be one of updatedAt, -updatedAt',
      errors,
    });
  });

  it('answers an unknown error with a bare 500 that leaks nothing, and logs it with the request id', () => {
    const error = new Error('relation "users" does not exist: SELECT * FROM users WHERE secret=hunter2');

    const response = answer(error);

    expect(response.statusCode).toBe(500);
    expect(response.contentType).toBe('application/problem+json');
    expect(response.json()).toEqual({
      type: '/problems/internal',
      title: 'Internal server error',
      status: 500,
      instance: '/api/processes?page=1',
      requestId: 'req-1',
    });
    expect(response.body).not.toMatch(/relation|SELECT|hunter2|at /);
    expect(logged).toHaveBeenCalledWith(
      { requestId: 'req-1', err: error },
      'GET /api/processes failed with 500',
    );
  });

  it('answers an outage with a 503, its Retry-After and detail, and no trace of the error', () => {
    const outage = Object.assign(new Error('Failed query: select * from users where username = $1'), {
      outage: true,
    });

    const response = answer(outage);

    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toMatchObject({
      type: '/problems/service-unavailable',
      status: 503,
      detail: 'The dependency is down',
    });
    expect(response.body).not.toMatch(/select|users/);
    expect(logged).not.toHaveBeenCalled();
  });

  it.each([null, undefined, 'a string', 42, { status: 200 }, { status: 503 }, { statusCode: 302 }])(
    'answers 500 for the non-error %j',
    (thrown) => {
      expect(answer(thrown).json()).toMatchObject({ type: '/problems/internal', status: 500 });
    },
  );

  it.each([
    [
      { status: 400, type: 'entity.parse.failed', body: '{"a":' },
      400,
      '/problems/invalid-request',
      'not valid JSON',
    ],
    [
      { status: 413, type: 'entity.too.large', limit: 16384 },
      413,
      '/problems/payload-too-large',
      'exceeds 16 KiB',
    ],
    [{ statusCode: 415, type: 'charset.unsupported' }, 415, '/problems/unsupported-media-type', 'UTF-8'],
  ])('answers the body-parser error %j', (error, status, type, detail) => {
    const thrown = Object.assign(new Error('Unexpected end of JSON input at position 5'), error);

    const response = answer(thrown, 'POST', '/api/auth/login');

    expect(response.statusCode).toBe(status);
    const body = response.json();
    expect(body).toMatchObject({ type, status });
    expect(body.detail).toContain(detail);
    expect(response.body).not.toContain('Unexpected end');
  });

  it('answers 405 with Allow when the path is served for other methods', () => {
    const response = answer(
      new NotFoundException('Cannot DELETE /api/auth/login'),
      'DELETE',
      '/api/auth/login',
    );

    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(response.json()).toMatchObject({
      type: '/problems/method-not-allowed',
      status: 405,
      detail: 'DELETE is not allowed on /api/auth/login; allowed: POST',
    });
  });

  it("answers 404 for a path nothing is served on, without echoing Nest's message", () => {
    const response = answer(new NotFoundException('Cannot GET /nowhere'), 'GET', '/nowhere?x=1');

    expect(response.statusCode).toBe(404);
    expect(response.headers).not.toHaveProperty('allow');
    expect(response.json()).toMatchObject({
      type: '/problems/not-found',
      status: 404,
      detail: 'No route matches GET /nowhere',
      instance: '/nowhere?x=1',
    });
  });

  it('maps other HTTP exceptions by status and does not echo their messages', () => {
    const response = answer(new BadRequestException('internal validation detail'));

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ type: '/problems/invalid-request' });
    expect(response.body).not.toContain('internal validation detail');
  });

  it('answers 500 for an HTTP status the contract has no problem type for', () => {
    expect(answer(new ForbiddenException()).json()).toMatchObject({
      type: '/problems/internal',
      status: 500,
    });
  });

  it('writes nothing when the response has already been sent', () => {
    const response = new FakeResponse();
    response.headersSent = true;

    sut.catch(new Error('late'), hostFor(fakeRequest('GET', '/api/processes'), response));

    expect(response.body).toBeUndefined();
    expect(response.statusCode).toBe(200);
    expect(logged).toHaveBeenCalled();
  });
});
