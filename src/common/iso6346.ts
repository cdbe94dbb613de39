/**
 * ISO 6346 freight container numbers: a 3-letter owner code, a category letter, a 6-digit serial
 * and a check digit. CONTRACT §5.1 asks for "4 letters and 7 digits, check digit valid", so the
 * category letter is not restricted to U, J or Z.
 */
const CONTAINER_NUMBER = /^[A-Z]{4}\d{7}$/;

/** Upper-cases and strips the spaces and hyphens people type (`mscu 123456-5`). */
export function normalizeContainerNumber(raw: string): string {
  return raw.replace(/[\s-]/g, '').toUpperCase();
}

/** Letter values start at A=10 and skip the multiples of 11 (11, 22, 33). */
function characterValue(char: string): number {
  const code = char.charCodeAt(0);
  if (code >= 48 && code <= 57) {
    return code - 48;
  }
  if (code < 65 || code > 90) {
    throw new RangeError(`not a container number character: ${char}`);
  }
  const raw = code - 65 + 10;
  return raw + Math.floor((raw - 1) / 10);
}

/** The check digit of the first 10 characters (owner code, category and serial). */
export function iso6346CheckDigit(first10: string): number {
  if (first10.length !== 10) {
    throw new RangeError('iso6346CheckDigit needs exactly 10 characters');
  }
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    sum += characterValue(first10.charAt(i)) * 2 ** i;
  }
  return (sum % 11) % 10;
}

/** True for a normalised number with the right shape and a matching check digit. */
export function isValidContainerNumber(normalized: string): boolean {
  if (!CONTAINER_NUMBER.test(normalized)) {
    return false;
  }
  return iso6346CheckDigit(normalized.slice(0, 10)) === Number(normalized.charAt(10));
}
