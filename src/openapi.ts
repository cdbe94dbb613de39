import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { applyDocumentConventions } from './common/openapi/document-conventions.js';
import { BEARER_SCHEME, OAUTH2_SCHEME } from './auth/access/requires-access.decorator.js';
import { SCOPES } from './domain/scopes.js';
import { RATE_LIMIT_HEADERS } from './rate-limit/rate-limit.openapi.js';

const DESCRIPTION = `Read-only API through which customers and their portals follow their import/export processes.

* Every error is RFC 9457 \`application/problem+json\` with \`type\`, \`title\`, \`status\`, \`detail\`, \`instance\` and \`requestId\`; 400s list every offending field in \`errors\`.
* Every response carries \`X-Request-Id\` (the client's own when it is 1-128 characters of \`[A-Za-z0-9._-]\`).
* Instants are RFC 3339 in UTC (\`2026-03-14T12:00:00Z\`); calendar dates are \`YYYY-MM-DD\`.
* A customer user sees only its own customers' processes; another customer's process is the same 404 as a missing one.
* CORS: only the origins the service is configured with, echoed exactly; never \`*\`.`;

const JWT_DESCRIPTION =
  'A token from `POST /api/auth/login` (a user: every scope) or `POST /api/oauth/token` (a client application: ' +
  'its scopes), sent as `Authorization: Bearer <token>`. Tokens follow RFC8725 (JSON Web Token Best Current ' +
  'Practices) and RFC 9068: HS256 only (the algorithm is pinned, `none` refused), `typ` `at+jwt`, with `iss`, ' +
  '`aud` and `exp` checked (no leeway) and a lifetime of 15 minutes by default (a user renews it with ' +
  '`POST /api/auth/refresh`).';

const OAUTH2_DESCRIPTION =
  'OAuth 2.0 client credentials (RFC 6749, section 4.4) for systems: register a client application with ' +
  '`POST /api/clients`, then exchange its `clientId` and `clientSecret` at the token endpoint. Each operation ' +
  'names the scope it needs. The token is a JWT as for users (RFC8725, JSON Web Token Best Current Practices; ' +
  'RFC 9068), valid 15 minutes by default, with no refresh token: the client asks again.';

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
    .addTag(
      'clients',
      'Client applications: the caller’s other systems, signing in with OAuth 2.0 client credentials',
    )
    .addTag('oauth', 'The OAuth 2.0 token endpoint and its metadata')
    .addTag('legacy', 'Retired routes, answering 410 with their successors')
    .addTag('operational', 'Probes and metrics for operators (no token)')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: JWT_DESCRIPTION },
      BEARER_SCHEME,
    )
    .addOAuth2(
      {
        type: 'oauth2',
        description: OAUTH2_DESCRIPTION,
        flows: { clientCredentials: { tokenUrl: '/api/oauth/token', scopes: { ...SCOPES } } },
      },
      OAUTH2_SCHEME,
    )
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
