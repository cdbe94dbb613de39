/** Brazilian company tax ids (CNPJ), numeric form: 8-digit base, 4-digit branch, 2 check digits. */

const FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const SECOND_WEIGHTS = [6, ...FIRST_WEIGHTS];

function checkDigit(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    sum += Number(digits.charAt(i)) * (weights[i] ?? 0);
  }
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/** The two check digits of the first 12 digits (base and branch). */
export function cnpjCheckDigits(first12: string): string {
  if (!/^\d{12}$/.test(first12)) {
    throw new RangeError('cnpjCheckDigits needs exactly 12 digits');
  }
  const first = checkDigit(first12, FIRST_WEIGHTS);
  const second = checkDigit(`${first12}${first}`, SECOND_WEIGHTS);
  return `${first}${second}`;
}

/** `12.345.678/0001-95` from an 8-digit base and a 4-digit branch. */
export function formatCnpj(base8: string, branch4 = '0001'): string {
  const digits = `${base8}${branch4}`;
  const check = cnpjCheckDigits(digits);
  return `${base8.slice(0, 2)}.${base8.slice(2, 5)}.${base8.slice(5, 8)}/${branch4}-${check}`;
}

/** True for a CNPJ (formatted or bare digits) whose check digits match. */
export function isValidCnpj(value: string): boolean {
  const digits = value.replace(/[./-]/g, '');
  if (!/^\d{14}$/.test(digits) || /^(\d)\1{13}$/.test(digits)) {
    return false;
  }
  return cnpjCheckDigits(digits.slice(0, 12)) === digits.slice(12);
}
