/**
 * What every feature's variables class is built from: environment values are strings, and an
 * empty one means unset.
 */

export const BOOLEANS = ['true', 'false'] as const;
export type BooleanText = (typeof BOOLEANS)[number];

export const emptyAsUnset = ({ value }: { value: unknown }): unknown => (value === '' ? undefined : value);

/** Env values are strings; only plain decimal integers count (no `1e3`, `0x10`, `1.5`). */
export const toInteger = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;

/** A true/false variable; unset: `fallback`. */
export const flag = (value: BooleanText | undefined, fallback: boolean): boolean =>
  value === undefined ? fallback : value === 'true';

/** A comma-separated list, items trimmed, empty items dropped. */
export function parseList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
