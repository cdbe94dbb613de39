import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';

/**
 * Paths pino censors wherever they turn up: credentials in headers (ours and upstream's), and
 * secrets in any object a log line carries. Request bodies are never logged in the first place.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...['headers', '*.headers', '*.*.headers'].flatMap((prefix) =>
    ['authorization', 'Authorization', 'cookie', 'x-api-key', 'X-Api-Key'].map(
      (name) => `${prefix}["${name}"]`,
    ),
  ),
  ...['password', 'accessToken', 'token', 'apiKey', 'secret'].flatMap((key) => [
    key,
    `*.${key}`,
    `*.*.${key}`,
  ]),
];

/**
 * Query parameter names that carry credentials: any name containing one of these words, and the
 * short names of common schemes (`code` of OAuth, `sig` of signed URLs, `pwd`, …).
 */
const SENSITIVE_QUERY_PARAMETER =
  /token|passw|secret|key|auth|session|cookie|credential|jwt|bearer|signature|^(?:pass|pwd|code|sig|otp|pin)$/i;
/** Three base64url parts separated by dots, the first two JSON objects (`eyJ`): a JWT, wherever it is. */
const JWT_LIKE = /eyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;
const MAX_CAUSES = 5;

/**
 * The URL with the value of any parameter that looks like a credential replaced, and anything
 * that looks like a JWT replaced wherever it stands (a path segment, another parameter's value).
 */
export function redactUrl(url: string): string {
  return redactQueryParameters(url).replace(JWT_LIKE, '[Redacted]');
}

function redactQueryParameters(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const pairs = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const name = pair.slice(0, equals);
      return SENSITIVE_QUERY_PARAMETER.test(safeDecode(name)) ? `${name}=[Redacted]` : pair;
    });
  return `${url.slice(0, queryStart)}?${pairs.join('&')}`;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** What a request line says about the request: no headers but the user agent, never the body. */
export function serializeRequest(request: IncomingMessage): Record<string, unknown> {
  const express = request as Partial<Request>;
  return {
    method: request.method,
    url: redactUrl(express.originalUrl ?? request.url ?? ''),
    remoteAddress: express.ip ?? request.socket?.remoteAddress,
    userAgent: request.headers['user-agent'],
  };
}

export function serializeResponse(response: ServerResponse): Record<string, unknown> {
  return { statusCode: response.statusCode };
}

/**
 * drizzle words a failed statement "Failed query: <SQL>" then a line "params: <the values bound>": a
 * webhook's encrypted secret, a user's id, a URL. The line goes, up to the stack's frames if any.
 */
const STATEMENT_PARAMETERS = /\nparams: [\s\S]*?(?=\n {4}at |$)/;
/** The same line inside a serialized log line, where a newline is written `\n` and a quote `\"`. */
const STATEMENT_PARAMETERS_IN_JSON = /\\nparams: (?:[^"\\]|\\.)*?(?=\\n {4}at |")/g;

export function withoutStatementParameters(text: string): string {
  return text.replace(STATEMENT_PARAMETERS, '');
}

/** The last guard of every log line, whatever logged it: a message or a field holding drizzle's text. */
export function logLineWithoutStatementParameters(line: string): string {
  return line.includes('\\nparams: ') ? line.replace(STATEMENT_PARAMETERS_IN_JSON, '') : line;
}

/**
 * Type, message, code and stack (when it has one) of an error and its causes, and nothing else: the standard
 * serializer copies every enumerable property, which for an HTTP client error means its whole
 * request configuration (headers and API key included), and a failed statement's values are left
 * out. The code is the first of the chain (a database's SQLSTATE under drizzle's error).
 */
export function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const messages: string[] = [];
  let code: string | number | undefined;
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth <= MAX_CAUSES; depth += 1) {
    messages.push(`${current.name}: ${withoutStatementParameters(current.message)}`);
    const ownCode = (current as { code?: unknown }).code;
    if (code === undefined && (typeof ownCode === 'string' || typeof ownCode === 'number')) code = ownCode;
    current = current.cause;
  }
  return {
    type: error.name,
    message: messages.join('; caused by: '),
    ...(code !== undefined && { code }),
    ...(error.stack !== undefined && { stack: withoutStatementParameters(error.stack) }),
  };
}

export const LOG_SERIALIZERS = { req: serializeRequest, res: serializeResponse, err: serializeError };
