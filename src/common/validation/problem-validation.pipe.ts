import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
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
 * Two refusals come before class-validator's, as it cannot make them: a member the DTO does not
 * declare, whatever its name (its whitelist looks names up in a plain object, so `constructor` or
 * `toString` pass as declared, and class-transformer drops `__proto__` unseen); and text with a NUL,
 * which PostgreSQL cannot store, in any parameter or body, with a DTO or without.
 *
 * Query and path parameters are strings from the URL, so the same parameters always validate to
 * the same DTO: the DTO each valid set gave is remembered (frozen, as handlers share it), and
 * portals asking the same page again skip class-transformer and class-validator. Bodies and
 * refusals are validated every time.
 */
@Injectable()
export class ProblemValidationPipe extends ValidationPipe {
  private readonly validated = new Map<ArgumentMetadata['metatype'], LRUCache<string, object>>();
  private readonly declaredMembers = new Map<ArgumentMetadata['metatype'], ReadonlySet<string>>();

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
    if (location !== undefined) await this.refuseWhatValidationMisses(value, metadata, location);
    const remembered = this.rememberedFor(metadata);
    if (remembered === undefined) return this.validateOrRefuse(value, metadata, location);
    const key = JSON.stringify(value);
    const known = remembered.get(key);
    if (known !== undefined) return known;
    const dto = await this.validateOrRefuse(value, metadata, location);
    if (typeof dto === 'object' && dto !== null) remembered.set(key, Object.freeze(dto));
    return dto;
  }

  /** Throws when the value holds a NUL or an undeclared member, listing every other offence too. */
  private async refuseWhatValidationMisses(
    value: unknown,
    metadata: ArgumentMetadata,
    location: ParameterLocation,
  ): Promise<void> {
    const toValidate = this.toValidate(metadata);
    if (location === 'body' && toValidate && !isPlainObject(value)) {
      throw new InvalidRequestException([{ in: 'body', name: 'body', message: 'must be a JSON object' }]);
    }
    const undeclared =
      toValidate && isPlainObject(value) ? this.undeclaredMembers(value, metadata, location) : [];
    const nuls = nulCharacters(value, location, metadata.data ?? '');
    if (undeclared.length === 0 && nuls.length === 0) return;
    const others = toValidate
      ? await this.fieldErrorsOf(omit(value as Record<string, unknown>, undeclared), metadata, location)
      : [];
    // A field's own rule (say, "must not contain control characters") explains a NUL best.
    const explained = new Set(others.map((error) => error.name));
    throw new InvalidRequestException([
      ...undeclared,
      ...others,
      ...nuls.filter((error) => !explained.has(error.name)),
    ]);
  }

  private async fieldErrorsOf(
    value: unknown,
    metadata: ArgumentMetadata,
    location: ParameterLocation,
  ): Promise<FieldError[]> {
    try {
      await this.validateOrRefuse(value, metadata, location);
      return [];
    } catch (error) {
      if (error instanceof InvalidRequestException) return error.errors;
      throw error;
    }
  }

  private undeclaredMembers(
    value: Record<string, unknown>,
    metadata: ArgumentMetadata,
    location: ParameterLocation,
  ): FieldError[] {
    let declared = this.declaredMembers.get(metadata.metatype);
    if (declared === undefined) {
      const validations = getMetadataStorage().getTargetValidationMetadatas(
        metadata.metatype!,
        '',
        true,
        false,
      );
      declared = new Set(validations.map((validation) => validation.propertyName));
      this.declaredMembers.set(metadata.metatype, declared);
    }
    return Object.keys(value)
      .filter((name) => !declared.has(name))
      .map((name) => ({ in: location, name, message: UNKNOWN_BY_LOCATION[location] }));
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

function omit(value: Record<string, unknown>, members: FieldError[]): Record<string, unknown> {
  const kept = { ...value };
  for (const member of members) delete kept[member.name];
  return kept;
}

/** Every string holding a NUL, named by its path (`kinds.0`), however deep. */
function nulCharacters(value: unknown, location: ParameterLocation, name: string): FieldError[] {
  if (typeof value === 'string') {
    return value.includes('\0') ? [{ in: location, name: name || location, message: NUL_MESSAGE }] : [];
  }
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, member]) =>
    nulCharacters(member, location, name === '' ? key : `${name}.${key}`),
  );
}

const NUL_MESSAGE = 'must not contain a NUL character (U+0000)';

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
