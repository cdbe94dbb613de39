import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

interface HeaderObject {
  required?: boolean;
  schema?: object;
}

interface ResponseObject {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema?: object }>;
}

interface ParameterObject {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  schema?: { enum?: string[] };
}

interface OperationObject {
  operationId?: string;
  parameters?: ParameterObject[];
  responses: Record<string, ResponseObject>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, object> };
}

/** What the validator needs of an HTTP answer (supertest's and fetch's both map onto it). */
export interface ObservedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const OPENAPI_ONLY_KEYWORDS = ['example', 'xml', 'externalDocs'];

/**
 * Checks answers against the committed `openapi.json`, strictly as OAS 3.1 reads a schema
 * (JSON Schema 2020-12): the status is documented for the operation (or `default`),
 * the content type is one the response documents, the body matches its schema, every required
 * header is present and every documented header that is present matches its schema.
 * Requests to paths or methods the document does not describe are not checked.
 */
export class OpenApiConformance {
  private readonly ajv: Ajv2020;
  private readonly routes: Array<{ pattern: RegExp; template: string }>;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenApiDocument) {
    this.ajv = new Ajv2020({
      strict: true,
      allowUnionTypes: true,
      allErrors: true,
      strictRequired: false,
      validateFormats: true,
    });
    this.ajv.addVocabulary(OPENAPI_ONLY_KEYWORDS);
    addFormats(this.ajv);
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
      this.ajv.addSchema(rebase(schema), `${SCHEMA_URI}${name}`);
    }
    this.routes = Object.keys(document.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  static committed(): OpenApiConformance {
    const file = new URL('../../openapi.json', import.meta.url);
    return new OpenApiConformance(JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument);
  }

  /** The operationIds the document declares, in its order. */
  operationIds(): string[] {
    return Object.values(this.document.paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) =>
        operation.operationId === undefined ? [] : [operation.operationId],
      ),
    );
  }

  /** The operationId of the operation a request reaches, or undefined when the document has none. */
  operationIdOf(method: string, url: string): string | undefined {
    return this.operationOf(method, url)?.operation.operationId;
  }

  /** Every way the answer departs from the document, each naming the operation and the field. */
  violations(method: string, url: string, response: ObservedResponse): string[] {
    const found = this.operationOf(method, url);
    if (found === undefined) return [];
    const { route, operation } = found;
    const where = `${method.toUpperCase()} ${route.template} (${operation.operationId ?? 'no operationId'}) answered ${response.status}`;
    const documented = responseFor(operation, response.status);
    if (documented === undefined) return [`${where}: status ${response.status} is not documented`];
    return [
      ...this.headerViolations(documented.response, response),
      ...this.bodyViolations(documented, response),
    ].map((problem) => `${where}: ${problem}`);
  }

  /** Throws with every violation, so a test fails where the drift shows. */
  assertConforms(method: string, url: string, response: ObservedResponse): void {
    const violations = this.violations(method, url, response);
    if (violations.length > 0) {
      throw new Error(`The answer does not conform to openapi.json:\n  ${violations.join('\n  ')}`);
    }
  }

  private operationOf(
    method: string,
    url: string,
  ): { route: { template: string }; operation: OperationObject } | undefined {
    const path = new URL(url, 'http://localhost').pathname;
    const route = this.routes.find((candidate) => candidate.pattern.test(path));
    const operation = route && this.document.paths[route.template]?.[method.toLowerCase()];
    return route === undefined || operation === undefined ? undefined : { route, operation };
  }

  private headerViolations(documented: ResponseObject, response: ObservedResponse): string[] {
    return Object.entries(documented.headers ?? {}).flatMap(([name, header]) => {
      const value = response.headers[name.toLowerCase()];
      if (value === undefined)
        return header.required === true ? [`header ${name} is required but missing`] : [];
      if (header.schema === undefined) return [];
      const validate = this.compile(`header:${JSON.stringify(header.schema)}`, header.schema);
      const text = Array.isArray(value) ? value.join(', ') : value;
      return validate(coerceHeader(text, header.schema))
        ? []
        : [
            `header ${name}: ${JSON.stringify(text)} ${this.ajv.errorsText(validate.errors, { dataVar: name })}`,
          ];
    });
  }

  private bodyViolations(documented: DocumentedResponse, response: ObservedResponse): string[] {
    const contentType = String(response.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    const content = documented.response.content;
    if (content === undefined || Object.keys(content).length === 0) return [];
    // A documented media type may carry parameters (`text/plain; version=0.0.4`): match on the type.
    const media = Object.entries(content).find(([type]) => type.split(';')[0]!.trim() === contentType)?.[1];
    if (media === undefined) {
      return [`content type ${JSON.stringify(contentType)} is not one of ${Object.keys(content).join(', ')}`];
    }
    if (media.schema === undefined || !contentType.endsWith('json')) return [];
    const validate = this.compile(`body:${documented.key}:${JSON.stringify(media.schema)}`, media.schema);
    if (validate(response.body)) return [];
    return (validate.errors ?? []).map(
      (error) =>
        `body${error.instancePath.replaceAll('/', '.')} ${error.message ?? 'is invalid'} (${JSON.stringify(error.params)})`,
    );
  }

  private compile(key: string, schema: object): ValidateFunction {
    let validate = this.validators.get(key);
    if (validate === undefined) {
      validate = this.ajv.compile(rebase(schema));
      this.validators.set(key, validate);
    }
    return validate;
  }
}

interface DocumentedResponse {
  key: string;
  response: ResponseObject;
}

/**
 * The response the document gives for a status: exact, then its range (`4XX`), then `default`,
 * which this document keeps for errors: a success it does not list is drift, not a `default`.
 */
function responseFor(operation: OperationObject, status: number): DocumentedResponse | undefined {
  const keys = [String(status), `${String(status)[0]}XX`, ...(status >= 400 ? ['default'] : [])];
  for (const key of keys) {
    const response = operation.responses[key];
    if (response !== undefined) return { key, response };
  }
  return undefined;
}

const SCHEMA_URI = 'openapi:components/schemas/';

/** Points the document's `#/components/schemas/...` references at the schemas registered with ajv. */
function rebase(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${SCHEMA_URI}`)) as object;
}

function coerceHeader(text: string, schema: object): unknown {
  const type = (schema as { type?: string }).type;
  return type === 'integer' || type === 'number' ? Number(text) : text;
}
