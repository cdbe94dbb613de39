/**
 * The numbers Brazilian customs systems give a process, as the simulator writes them.
 *
 * Check digits: modulo 11 with weights 2, 3, …, 9 repeating from the rightmost digit, a remainder
 * of 0 or 1 giving 0 (the scheme of Receita Federal's CNPJ and of Siscomex's DI numbers, as
 * published in Receita Federal's layouts for the DI). For DUIMP and DU-E numbers, whose layout
 * documents were not available to us, the same scheme is applied over the year and sequence.
 * CE-Mercante numbers carry no check digit here.
 */
export function modulo11CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    sum += Number(digits.charAt(digits.length - 1 - i)) * (2 + (i % 8));
  }
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

export type DeclarationKind = 'DI' | 'DUIMP' | 'DUE';

/** DI `yy/nnnnnnn-d`; DUIMP and DU-E `yyBRnnnnnnnnnn-d` (a two-digit year, BR, a 10-digit sequence). */
export function declarationNumber(kind: DeclarationKind, twoDigitYear: string, sequence: string): string {
  const digit = modulo11CheckDigit(`${twoDigitYear}${sequence}`);
  return kind === 'DI' ? `${twoDigitYear}/${sequence}-${digit}` : `${twoDigitYear}BR${sequence}-${digit}`;
}

const NUMBER_FORMATS: Readonly<Record<DeclarationKind, RegExp>> = {
  DI: /^(\d{2})\/(\d{7})-(\d)$/,
  DUIMP: /^(\d{2})BR(\d{10})-(\d)$/,
  DUE: /^(\d{2})BR(\d{10})-(\d)$/,
};

/** Whether `number` has the format of its kind and a valid check digit. */
export function isValidDeclarationNumber(kind: DeclarationKind, number: string): boolean {
  const match = NUMBER_FORMATS[kind].exec(number);
  if (match === null) return false;
  const [, year, sequence, digit] = match;
  return modulo11CheckDigit(`${year}${sequence}`) === Number(digit);
}

/** A CE-Mercante number: 15 digits (the issuing unit, a two-digit year, the sequence). */
export const CE_MERCANTE_FORMAT = /^\d{15}$/;
