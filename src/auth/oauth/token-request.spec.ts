import type { Request } from 'express';
import { ProblemException } from '../../common/problems/problem.exception.js';
import { readTokenRequest } from './token-request.js';

const FORM = 'application/x-www-form-urlencoded';
const CLIENT_ID = 'plc_8Zq3v1Xw0bT4nYc2LmQa9d';
const SECRET = 'pls_3q2-7wEyq0cS1nV9fXbJ4kR8tLmZ6aH5dG2pU0oYiWe';

function requestOf(body: Record<string, unknown>, authorization?: string, contentType = FORM): Request {
  return {
    body,
    headers: authorization === undefined ? {} : { authorization },
    is: (type: string) => (type === contentType ? type : false),
  } as unknown as Request;
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

function oauthErrorOf(request: Request): {
  error: unknown;
  status: number;
  headers?: Record<string, string>;
} {
  try {
    readTokenRequest(request);
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemException);
    const problem = error as ProblemException;
    expect(problem.problemOptions.contentType).toBe('application/json');
    return {
      error: problem.problemOptions.extensions?.error,
      status: problem.getStatus(),
      ...(problem.problemOptions.headers !== undefined && { headers: problem.problemOptions.headers }),
    };
  }
  throw new Error('expected an OAuth error');
}

describe(readTokenRequest.name, () => {
  const grant = { grant_type: 'client_credentials' };

  it('reads client_secret_basic, with id and secret form-urlencoded inside the Basic credentials', () => {
    const request = requestOf(
      { ...grant, scope: 'processes:read changes:read' },
      basic('plc%5Fa%2Bb', 's%3Ac+d'),
    );

    expect(readTokenRequest(request)).toEqual({
      clientId: 'plc_a+b',
      clientSecret: 's:c d',
      method: 'client_secret_basic',
      scopes: ['processes:read', 'changes:read'],
    });
  });

  it('reads client_secret_post; no scope (or an empty one) asks for the client’s own', () => {
    for (const scope of [{}, { scope: '' }]) {
      expect(
        readTokenRequest(requestOf({ ...grant, ...scope, client_id: CLIENT_ID, client_secret: SECRET })),
      ).toEqual({ clientId: CLIENT_ID, clientSecret: SECRET, method: 'client_secret_post', scopes: null });
    }
  });

  it('takes client_id in the form beside Basic credentials when it is the same client', () => {
    expect(
      readTokenRequest(requestOf({ ...grant, client_id: CLIENT_ID }, basic(CLIENT_ID, SECRET))).method,
    ).toBe('client_secret_basic');
  });

  it.each<[string, Request, string, number]>([
    [
      'a body that is not a form',
      requestOf({ ...grant }, undefined, 'application/json'),
      'invalid_request',
      400,
    ],
    ['a repeated parameter', requestOf({ grant_type: ['client_credentials', 'x'] }), 'invalid_request', 400],
    ['no grant_type', requestOf({ client_id: CLIENT_ID, client_secret: SECRET }), 'invalid_request', 400],
    [
      'another grant type',
      requestOf({ grant_type: 'password', client_id: CLIENT_ID, client_secret: SECRET }),
      'unsupported_grant_type',
      400,
    ],
    [
      'scopes not separated by single spaces',
      requestOf({
        ...grant,
        scope: 'processes:read  changes:read',
        client_id: CLIENT_ID,
        client_secret: SECRET,
      }),
      'invalid_scope',
      400,
    ],
    [
      'Basic credentials and a secret in the form',
      requestOf({ ...grant, client_secret: SECRET }, basic(CLIENT_ID, SECRET)),
      'invalid_request',
      400,
    ],
    [
      'Basic credentials and another client_id in the form',
      requestOf({ ...grant, client_id: 'plc_other' }, basic(CLIENT_ID, SECRET)),
      'invalid_request',
      400,
    ],
    ['no client authentication', requestOf({ ...grant }), 'invalid_client', 401],
    ['a client_id without its secret', requestOf({ ...grant, client_id: CLIENT_ID }), 'invalid_client', 401],
  ])('refuses %s', (_case, request, error, status) => {
    expect(oauthErrorOf(request)).toMatchObject({ error, status });
  });

  it.each([
    ['another scheme', `Bearer ${SECRET}`],
    ['Basic credentials without a colon', `Basic ${Buffer.from(CLIENT_ID).toString('base64')}`],
    ['Basic credentials that do not decode', basic('%E0%A4%A', SECRET)],
  ])('refuses %s as invalid_client, with a Basic challenge', (_case, authorization) => {
    expect(oauthErrorOf(requestOf({ ...grant }, authorization))).toEqual({
      error: 'invalid_client',
      status: 401,
      headers: { 'WWW-Authenticate': 'Basic realm="process-lookup"' },
    });
  });
});
