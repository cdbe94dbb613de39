import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { applyDocumentConventions } from './common/openapi/document-conventions.js';
import { RATE_LIMIT_HEADERS } from './rate-limit/rate-limit.openapi.js';

const DESCRIPTION = `Read-only API through which customers and their portals follow their import/export processes.

* Every error is RFC 9457 \`application/problem+json\` with \`type\`, \`title\`, \`status\`, \`detail\`, \`instance\` and \`requestId\`; 400s list every offending field in \`errors\`.
* Every response carries \`X-Request-Id\` (the client's own when it is 1-128 characters of \`[A-Za-z0-9._-]\`).
* Instants are RFC 3339 in UTC (\`2026-03-14T12:00:00Z\`); calendar dates are \`YYYY-MM-DD\`.
* A customer user sees only its own customers' processes; another customer's process is the same 404 as a missing one.
* CORS: only the origins the service is configured with, echoed exactly; never \`*\`.`;

const JWT_DESCRIPTION =
  'A token from `POST /api/auth/login`, sent as `Authorization: Bearer <token>`. Tokens follow RFC8725 ' +
  '(JSON Web Token Best Current Practices): HS256 only (the algorithm is pinned, `none` refused), with ' +
  '`iss`, `aud` and `exp` checked and a lifetime of 15 minutes by default (renew it with `POST /api/auth/refresh`).';

/** The OpenAPI document, generated from the controllers and DTOs; committed as `openapi.json`. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Process Lookup API')
    .setDescription(DESCRIPTION)
    .setOpenAPIVersion('3.1.0')
    .setVersion('1.0.0')
    .addTag('auth', 'Sign in for an access token and a refresh token; refresh; sign out')
    .addTag('processes', 'The import/export processes the caller may see')
    .addTag('changes', 'What changed in those processes, replayable by cursor or pushed as it happens')
    .addTag('webhooks', 'The change feed POSTed to the caller’s own systems, signed per Standard Webhooks')
    .addTag('legacy', 'Retired routes, answering 410 with their successors')
    .addTag('operational', 'Probes and metrics for operators (no token)')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: JWT_DESCRIPTION })
    .build();
  // Relative, so the document fits every environment (local, staging, production) it is served from.
  config.servers = [
    {
      url: '/',
      description:
        'This service in its environment (local, staging or production): where the document was read',
      'x-internal': false,
    } as OpenAPIObject['servers'] extends (infer S)[] | undefined ? S : never,
  ];
  return applyDocumentConventions(SwaggerModule.createDocument(app, config), RATE_LIMIT_HEADERS);
}
