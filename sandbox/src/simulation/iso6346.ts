/**
 * ISO 6346 freight container numbers: a 3-letter owner code, a category letter, a 6-digit serial
 * and a check digit. The API asks for "4 letters and 7 digits, check digit valid", so the
 * category letter is not restricted to U, J or Z.
 */
/** The shape of a normalised container number, check digit aside. */
export const CONTAINER_NUMBER_FORMAT = /^[A-Z]{4}[0-9]{7}$/;

/** Upper-cases and strips the spaces and hyphens people type (`mscu 123456-5`). */
export function normalizeContainerNumber(raw: string): string {
  return raw.replace(/[\s-]/g, '').toUpperCase();
}

/** Character code → value: digits are themselves, letters start at A=10 skipping 11, 22 and 33. */
const VALUES = new Map<number, number>();
for (let digit = 0; digit <= 9; digit++) {
  VALUES.set(48 + digit, digit);
}
for (let letter = 0; letter < 26; letter++) {
  const raw = 10 + letter;
  VALUES.set(65 + letter, raw + Math.floor((raw - 1) / 10));
}

/** The check digit of the first 10 characters (owner code, category and serial). */
export function iso6346CheckDigit(first10: string): number {
  if (first10.length !== 10) {
    throw new RangeError('iso6346CheckDigit needs exactly 10 characters');
  }
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const value = VALUES.get(first10.charCodeAt(i));
    if (value === undefined) {
      throw new RangeError(`not a container number character: ${first10.charAt(i)}`);
    }
    sum += value << i;
  }
  return (sum % 11) % 10;
}

/** True for a normalised number with the right shape and a matching check digit. */
export function isValidContainerNumber(normalized: string): boolean {
  if (!CONTAINER_NUMBER_FORMAT.test(normalized)) {
    return false;
  }
  return iso6346CheckDigit(normalized.slice(0, 10)) === Number(normalized.charAt(10));
}
