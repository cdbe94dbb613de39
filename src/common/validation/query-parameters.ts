import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/**
 * Validators for raw query-string values. Query values arrive as strings (or arrays when a
 * parameter is repeated) and are never coerced implicitly: `1e3`, `0x10`, `1.5` and `''` are
 * refused instead of being read as numbers. Each validator owns its whole message, so a field
 * gets one clear error.
 */
function queryParameter(
  name: string,
  expectation: string,
  isValid: (value: string, args: ValidationArguments) => boolean,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target, propertyName) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          typeof value === 'string' && isValid(value, args),
        defaultMessage: (args: ValidationArguments) =>
          Array.isArray(args.value) ? 'must be given at most once' : expectation,
      },
    });
  };
}

const DECIMAL_INTEGER = /^(0|[1-9]\d*)$/;

export function IsIntegerParameter(min: number, max?: number): PropertyDecorator {
  const expectation =
    max === undefined ? `must be an integer >= ${min}` : `must be an integer between ${min} and ${max}`;
  return queryParameter('isIntegerParameter', expectation, (value) => {
    if (!DECIMAL_INTEGER.test(value)) return false;
    const number = Number(value);
    return Number.isSafeInteger(number) && number >= min && (max === undefined || number <= max);
  });
}

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/** A real `YYYY-MM-DD` date of the years 0001-9999: `2026-02-30` is refused, not rolled over to March. */
export function isCalendarDate(value: string): boolean {
  const match = CALENDAR_DATE.exec(value);
  if (match === null) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  if (year < 1) return false;
  // Not Date.UTC, which reads the years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An RFC 3339 instant with an offset, whose date and time fields are real. */
export function isInstant(value: string): boolean {
  if (!INSTANT.test(value) || !isCalendarDate(value.slice(0, 10))) return false;
  const [hours, minutes, seconds] = value.slice(11, 19).split(':').map(Number) as [number, number, number];
  return hours < 24 && minutes < 60 && seconds < 60 && !Number.isNaN(Date.parse(value));
}

export function IsDateParameter(): PropertyDecorator {
  return queryParameter(
    'isDateParameter',
    'must be a real calendar date (YYYY-MM-DD) of the years 0001-9999',
    isCalendarDate,
  );
}

export function IsInstantOrDateParameter(): PropertyDecorator {
  return queryParameter(
    'isInstantOrDateParameter',
    'must be an RFC 3339 instant with an offset (2026-03-14T12:00:00Z) or a date (YYYY-MM-DD), of the years 0001-9999',
    (value) => isCalendarDate(value) || isInstant(value),
  );
}

export function IsOneOfParameter(
  values: readonly string[],
  { ignoreCase = false }: { ignoreCase?: boolean } = {},
): PropertyDecorator {
  const expectation = `must be one of ${values.join(', ')}${ignoreCase ? ' (case-insensitive)' : ''}`;
  return queryParameter('isOneOfParameter', expectation, (value) =>
    values.includes(ignoreCase ? value.toUpperCase() : value),
  );
}

/**
 * A list-valued parameter: repeated (`status=A&status=B`, the OpenAPI default `form`/`explode`
 * that generated clients send), comma-separated (`status=A,B`) or both mixed; each item one of
 * `values` (case-insensitive).
 */
export function IsListOfParameter(values: readonly string[]): PropertyDecorator {
  const allowed = new Set(values);
  return (target, propertyName) => {
    registerDecorator({
      name: 'isListOfParameter',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => {
          const occurrences: unknown[] = Array.isArray(value) ? value : [value];
          return occurrences.every(
            (occurrence) =>
              typeof occurrence === 'string' &&
              occurrence.split(',').every((item) => allowed.has(item.trim().toUpperCase())),
          );
        },
        defaultMessage: () => `must be one of ${values.join(', ')} (several repeated or comma-separated)`,
      },
    });
  };
}

/** The items of a validated list-valued parameter, in either form, as one array of raw values. */
export function listItems(value: string | string[]): string[] {
  return (Array.isArray(value) ? value : [value]).flatMap((occurrence) => occurrence.split(','));
}

export function IsParameterMatching(
  check: (value: string) => boolean,
  expectation: string,
): PropertyDecorator {
  return queryParameter('isParameterMatching', expectation, check);
}

/**
 * Cross-field rule for a range's upper bound: `isOrdered(to, from)` must hold when both bounds are
 * present and well-formed (a malformed bound already has its own error).
 */
export function IsRangeEnd(
  startProperty: string,
  isWellFormed: (value: string) => boolean,
  isOrdered: (end: string, start: string) => boolean,
): PropertyDecorator {
  return (target, propertyName) => {
    registerDecorator({
      name: 'isRangeEnd',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [startProperty],
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          const start = (args.object as Record<string, unknown>)[startProperty];
          if (typeof value !== 'string' || typeof start !== 'string') return true;
          if (!isWellFormed(value) || !isWellFormed(start)) return true;
          return isOrdered(value, start);
        },
        defaultMessage: () => `must not be before ${startProperty}`,
      },
    });
  };
}

/** A parameter that must not come with `otherProperty` (two ways of saying the same thing). */
export function IsNotWith(otherProperty: string): PropertyDecorator {
  return (target, propertyName) => {
    registerDecorator({
      name: 'isNotWith',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [otherProperty],
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          value === undefined || (args.object as Record<string, unknown>)[otherProperty] === undefined,
        defaultMessage: () => `must not be given together with ${otherProperty}`,
      },
    });
  };
}
