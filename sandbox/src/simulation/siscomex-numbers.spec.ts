import { declarationNumber, isValidDeclarationNumber, modulo11CheckDigit } from './siscomex-numbers.js';

describe(modulo11CheckDigit.name, () => {
  it.each([
    // The CNPJ 11.222.333/0001-81: its first check digit over the first twelve digits is 8.
    ['112223330001', 8],
    ['0', 0],
    ['1', 9],
    ['5', 1],
    ['26123456', 0],
  ])('gives %s the digit %i', (digits, expected) => {
    expect(modulo11CheckDigit(digits)).toBe(expected);
  });
});

describe(declarationNumber.name, () => {
  it('writes a DI as yy/nnnnnnn-d', () => {
    expect(declarationNumber('DI', '26', '0123456')).toMatch(/^26\/0123456-\d$/);
  });

  it.each(['DUIMP', 'DUE'] as const)('writes a %s as yyBRnnnnnnnnnn-d', (kind) => {
    expect(declarationNumber(kind, '26', '0000123456')).toMatch(/^26BR0000123456-\d$/);
  });

  it.each(['DI', 'DUIMP', 'DUE'] as const)(
    'writes %s numbers that validate, and no altered one does',
    (kind) => {
      const sequence = kind === 'DI' ? '7654321' : '0000765432';
      const number = declarationNumber(kind, '25', sequence);
      expect(isValidDeclarationNumber(kind, number)).toBe(true);
      const digit = Number(number.slice(-1));
      expect(isValidDeclarationNumber(kind, `${number.slice(0, -1)}${(digit + 1) % 10}`)).toBe(false);
      expect(isValidDeclarationNumber(kind === 'DI' ? 'DUIMP' : 'DI', number)).toBe(false);
    },
  );
});
