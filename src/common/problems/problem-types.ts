/** Every problem type the API answers with: `type` URI, `title` and status, one entry each. */
export const PROBLEM_TYPES = {
  invalidRequest: { type: '/problems/invalid-request', title: 'Invalid request', status: 400 },
  invalidCredentials: { type: '/problems/invalid-credentials', title: 'Invalid credentials', status: 401 },
  unauthorized: { type: '/problems/unauthorized', title: 'Unauthorized', status: 401 },
  insufficientScope: { type: '/problems/insufficient-scope', title: 'Insufficient scope', status: 403 },
  notFound: { type: '/problems/not-found', title: 'Not found', status: 404 },
  methodNotAllowed: { type: '/problems/method-not-allowed', title: 'Method not allowed', status: 405 },
  endpointRetired: { type: '/problems/endpoint-retired', title: 'Endpoint retired', status: 410 },
  cursorExpired: { type: '/problems/cursor-expired', title: 'Cursor expired', status: 410 },
  clientLimitReached: {
    type: '/problems/client-limit-reached',
    title: 'Client application limit reached',
    status: 409,
  },
  webhookLimitReached: {
    type: '/problems/webhook-limit-reached',
    title: 'Webhook limit reached',
    status: 409,
  },
  requestTimeout: { type: '/problems/request-timeout', title: 'Request timeout', status: 408 },
  payloadTooLarge: { type: '/problems/payload-too-large', title: 'Payload too large', status: 413 },
  unsupportedMediaType: {
    type: '/problems/unsupported-media-type',
    title: 'Unsupported media type',
    status: 415,
  },
  expectationFailed: { type: '/problems/expectation-failed', title: 'Expectation failed', status: 417 },
  rateLimited: { type: '/problems/rate-limited', title: 'Too many requests', status: 429 },
  headersTooLarge: {
    type: '/problems/request-headers-too-large',
    title: 'Request header fields too large',
    status: 431,
  },
  internal: { type: '/problems/internal', title: 'Internal server error', status: 500 },
  operationsUnavailable: {
    type: '/problems/operations-unavailable',
    title: 'Operations system unavailable',
    status: 503,
  },
  // Last of the 503s: a bare 503 from elsewhere is read as this one.
  serviceUnavailable: { type: '/problems/service-unavailable', title: 'Service unavailable', status: 503 },
} as const;

export type ProblemType = (typeof PROBLEM_TYPES)[keyof typeof PROBLEM_TYPES];

export type ParameterLocation = 'query' | 'body' | 'path' | 'header';

/** One offending field of a 400. */
export interface FieldError {
  in: ParameterLocation;
  name: string;
  message: string;
}

/** The RFC 9457 body this service sends. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance: string;
  requestId: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}
