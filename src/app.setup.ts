import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { bodyDepthLimit } from './common/http/body-depth-limit.js';
import { configureHttpServer, requireHostHeader } from './common/http/http-server-settings.js';
import { queryStringLimit } from './common/http/query-string-limit.js';
import { responseCompression } from './common/http/response-compression.js';
import { requestIdMiddleware } from './common/http/request-id.js';
import { RequestActivity } from './common/http/request-activity.js';
import { AppConfig } from './config/app.config.js';
import { HttpLogger } from './logging/http-logger.js';
import { PinoNestLogger } from './logging/pino-nest-logger.js';
import { closeConnectionsWhileDraining } from './lifecycle/graceful-shutdown.js';
import { ShutdownState } from './lifecycle/shutdown.state.js';
import { HttpMetrics } from './metrics/http.metrics.js';
import { buildOpenApiDocument } from './openapi.js';
import { servePortal } from './portal/portal.static.js';
import { serverSpanMiddleware } from './tracing/server-span.middleware.js';

/** Request bodies are at most 16 KiB. */
const BODY_LIMIT = '16kb';

/**
 * What a portal's requests carry: its own headers, the `Cache-Control` and `Pragma` that browsers
 * add beside `If-None-Match`, and the W3C trace context that browser telemetry adds.
 */
const CORS_REQUEST_HEADERS = [
  'Authorization',
  'Content-Type',
  'If-None-Match',
  'Last-Event-ID',
  'X-Request-Id',
  'Cache-Control',
  'Pragma',
  'Accept-Language',
  'traceparent',
  'tracestate',
];
const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Link',
  // The id of a webhook just created, for a browser app.
  'Location',
  'X-Request-Id',
  'Retry-After',
  'Deprecation',
  'Sunset',
  'WWW-Authenticate',
  'Allow',
  'RateLimit',
  'RateLimit-Policy',
];

/**
 * Everything about the HTTP server that is not a module: middleware order, parsers, CORS and
 * the docs. Shared by `main.ts` and the e2e tests so both run the same stack (on a
 * `ServiceExpressAdapter`, which creates the server with its limits).
 */
export function configureApp(app: NestExpressApplication): void {
  const config = app.get(AppConfig);
  // Every Nest Logger writes through pino from here on (buffered start-up lines are flushed).
  app.useLogger(app.get(PinoNestLogger));
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // Process responses carry their own ETag; nothing else needs one.
  app.set('etag', false);
  configureHttpServer(app.getHttpServer(), app.get(HttpMetrics));
  // First: the request's span, current for all that follows (its log line carries its ids).
  if (config.tracing.enabled) app.use(serverSpanMiddleware());
  // Background work (webhook delivery) yields to requests, whatever answers them.
  app.use(app.get(RequestActivity).middleware);
  app.use(requestIdMiddleware);
  app.use(closeConnectionsWhileDraining(app.get(ShutdownState)));
  // Right after the id, so that answers from later middleware (400, 413, 414, preflights) are logged and counted too.
  app.use(app.get(HttpLogger).middleware);
  app.use(app.get(HttpMetrics).middleware);
  app.use(requireHostHeader);
  app.use(responseCompression());
  // Without TLS in front, upgrade-insecure-requests would send /docs's assets to https (a blank
  // page on any address but localhost), HSTS would be meaningless, and browsers ignore COOP from an
  // untrustworthy origin with a console error.
  app.use(
    helmet({
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: config.servedOverTls ? [] : null } },
      strictTransportSecurity: config.servedOverTls,
      crossOriginOpenerPolicy: config.servedOverTls,
    }),
  );
  const allowedHeaders = [
    ...CORS_REQUEST_HEADERS,
    ...config.cors.allowedHeaders.filter(
      (name) => !CORS_REQUEST_HEADERS.some((own) => own.toLowerCase() === name.toLowerCase()),
    ),
  ];
  app.enableCors((request: Request, callback) => {
    const isPreflight =
      request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    callback(null, {
      origin: config.cors.origins,
      // Plain OPTIONS requests go on to routing (404/405/410) instead of a blanket 204.
      preflightContinue: !isPreflight,
      // The methods of the API's routes, and the request headers a portal sends.
      methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
      allowedHeaders,
      // What a browser portal must be able to read: paging, caching, tracing, retry and limit hints.
      exposedHeaders: CORS_EXPOSED_HEADERS,
      maxAge: 600,
    });
  });
  if (config.portal.enabled) servePortal(app);
  // Before the parsers, so that their 400/413 answers are not cached either.
  app.use('/api/auth', noStore);
  app.use('/api/oauth', noStore);
  app.use(queryStringLimit);
  app.useBodyParser('json', { limit: BODY_LIMIT });
  app.useBodyParser('urlencoded', { limit: BODY_LIMIT, extended: false });
  app.use(bodyDepthLimit);

  // Built on the first request for it, not at start-up: scanning every route costs each start
  // (and each test's app) about a quarter of a second that most never use.
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
}

function noStore(_request: Request, response: Response, next: NextFunction): void {
  response.setHeader('Cache-Control', 'no-store');
  next();
}
