import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { InvalidRequestException } from '../problems/problem.exception.js';
import type { FieldError, ParameterLocation } from '../problems/problem-types.js';

/** Carries class-validator's errors out of the pipe so {@link ProblemValidationPipe} can place them. */
class ValidationFailure extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('validation failed');
  }
}

const LOCATION_BY_PARAM_TYPE: Partial<Record<ArgumentMetadata['type'], ParameterLocation>> = {
  body: 'body',
  query: 'query',
  param: 'path',
};

/** Distinct query strings (or paths) remembered per DTO class, with the DTO validating them gave. */
const REMEMBERED_PER_CLASS = 1000;

/**
 * The global validation pipe: strict DTO validation (unknown fields refused, nothing coerced
 * implicitly) whose failures are a 400 listing every offending field with where it came from.
 *
 * Query and path parameters are strings from the URL, so the same parameters always validate to
 * the same DTO: the DTO each valid set gave is remembered (frozen, as handlers share it), and
 * portals asking the same page again skip class-transformer and class-validator. Bodies and
 * refusals are validated every time.
 */
@Injectable()
export class ProblemValidationPipe extends ValidationPipe {
  private readonly validated = new Map<ArgumentMetadata['metatype'], LRUCache<string, object>>();

  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      stopAtFirstError: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new ValidationFailure(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const location = LOCATION_BY_PARAM_TYPE[metadata.type];
    if (location === 'body' && this.toValidate(metadata) && !isPlainObject(value)) {
      throw new InvalidRequestException([{ in: 'body', name: 'body', message: 'must be a JSON object' }]);
    }
    const remembered = this.rememberedFor(metadata);
    if (remembered === undefined) return this.validateOrRefuse(value, metadata, location);
    const key = JSON.stringify(value);
    const known = remembered.get(key);
    if (known !== undefined) return known;
    const dto = await this.validateOrRefuse(value, metadata, location);
    if (typeof dto === 'object' && dto !== null) remembered.set(key, Object.freeze(dto));
    return dto;
  }

  private rememberedFor(metadata: ArgumentMetadata): LRUCache<string, object> | undefined {
    if ((metadata.type !== 'query' && metadata.type !== 'param') || !this.toValidate(metadata))
      return undefined;
    let remembered = this.validated.get(metadata.metatype);
    if (remembered === undefined) {
      remembered = new LRUCache({ max: REMEMBERED_PER_CLASS });
      this.validated.set(metadata.metatype, remembered);
    }
    return remembered;
  }

  private async validateOrRefuse(
    value: unknown,
    metadata: ArgumentMetadata,
    location: ParameterLocation | undefined,
  ): Promise<unknown> {
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof ValidationFailure)) throw error;
      throw new InvalidRequestException(flatten(error.errors, location ?? 'body'));
    }
  }
}

/** class-validator says "property foo should not exist"; a person reads "unknown parameter". */
const UNKNOWN_BY_LOCATION: Record<ParameterLocation, string> = {
  query: 'unknown parameter',
  path: 'unknown parameter',
  header: 'unknown header',
  body: 'unknown field',
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function flatten(errors: ValidationError[], location: ParameterLocation, prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const name = prefix + error.property;
    const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) => ({
      in: location,
      name,
      message:
        constraint === 'whitelistValidation'
          ? UNKNOWN_BY_LOCATION[location]
          : stripPropertyName(message, error.property),
    }));
    return [...own, ...flatten(error.children ?? [], location, `${name}.`)];
  });
}

/** class-validator writes "username must be a string"; the field is named apart in `errors[]`. */
function stripPropertyName(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}
