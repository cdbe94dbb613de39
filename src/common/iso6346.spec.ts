import { iso6346CheckDigit, isValidContainerNumber, normalizeContainerNumber } from './iso6346.js';

describe('iso6346', () => {
  describe(normalizeContainerNumber.name, () => {
    it('upper-cases and strips spaces and hyphens', () => {
      expect(normalizeContainerNumber(' cSqu 305438-3 ')).toBe('CSQU3054383');
      expect(normalizeContainerNumber('msku\t907 032-3')).toBe('MSKU9070323');
    });
  });

  describe(iso6346CheckDigit.name, () => {
    it.each([
      ['CSQU305438', 3],
      ['MSKU907032', 3],
      ['MSCU123456', 6],
      ['MAEU123456', 7],
      ['TGHU456789', 6],
    ])('%s → %i', (first10, digit) => {
      expect(iso6346CheckDigit(first10)).toBe(digit);
    });

    it('maps a remainder of 10 to check digit 0', () => {
      // MSCU100007: the weighted sum is ≡ 10 (mod 11).
      expect(iso6346CheckDigit('MSCU100007')).toBe(0);
    });

    it('rejects input of the wrong length or alphabet', () => {
      expect(() => iso6346CheckDigit('CSQU30543')).toThrow(RangeError);
      expect(() => iso6346CheckDigit('CSQU30543!')).toThrow(RangeError);
    });
  });

  describe(isValidContainerNumber.name, () => {
    it.each(['CSQU3054383', 'MSKU9070323', 'MSCU1234566', 'MAEU1234567', 'MSCU1000070'])(
      'accepts %s',
      (number) => {
        expect(isValidContainerNumber(number)).toBe(true);
      },
    );

    it.each([
      ['wrong check digit', 'CSQU3054384'],
      ['wrong check digit (a common example that is not valid)', 'MSCU1234565'],
      ['too short', 'CSQU305438'],
      ['too long', 'CSQU30543830'],
      ['digits in the owner code', 'CS1U3054383'],
      ['not normalised', 'csqu3054383'],
      ['separators', 'CSQU 305438-3'],
    ])('rejects %s (%s)', (_why, number) => {
      expect(isValidContainerNumber(number)).toBe(false);
    });

    it('accepts any fourth letter, as the contract asks only for 4 letters and 7 digits', () => {
      expect(isValidContainerNumber('CSQX3054382')).toBe(true);
    });

    it('accepts the J and Z categories', () => {
      const j = `ABCJ123456`;
      const z = `ABCZ123456`;
      expect(isValidContainerNumber(`${j}${iso6346CheckDigit(j)}`)).toBe(true);
      expect(isValidContainerNumber(`${z}${iso6346CheckDigit(z)}`)).toBe(true);
    });
  });
});
