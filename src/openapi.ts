import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

const DESCRIPTION = `Read-only API through which customers and their portals follow their import/export processes.

* Every error is RFC 9457 \`application/problem+json\` with \`type\`, \`title\`, \`status\`, \`detail\`, \`instance\` and \`requestId\`; 400s list every offending field in \`errors\`.
* Every response carries \`X-Request-Id\` (the client's own when it is 1-128 characters of \`[A-Za-z0-9._-]\`).
* Instants are RFC 3339 in UTC (\`2026-03-14T12:00:00Z\`); calendar dates are \`YYYY-MM-DD\`.
* A customer user sees only its own customers' processes; another customer's process is the same 404 as a missing one.`;

/** The OpenAPI document, generated from the controllers and DTOs; committed as `openapi.json`. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Process Lookup API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .build();
  return SwaggerModule.createDocument(app, config);
}
