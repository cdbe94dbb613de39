import { cnpjCheckDigits, formatCnpj, isValidCnpj } from './cnpj.js';

describe('cnpj', () => {
  it('computes the check digits of known CNPJs', () => {
    // Receita Federal's own CNPJ and a widely used documentation example.
    expect(cnpjCheckDigits('003944600058')).toBe('87');
    expect(cnpjCheckDigits('112223330001')).toBe('81');
  });

  it('formats as 12.345.678/0001-95', () => {
    expect(formatCnpj('12345678')).toBe('12.345.678/0001-95');
    expect(formatCnpj('11222333', '0002')).toMatch(/^11\.222\.333\/0002-\d{2}$/);
  });

  it('validates formatted and bare values', () => {
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('00394460005887')).toBe(true);
    expect(isValidCnpj('11.222.333/0001-82')).toBe(false);
    expect(isValidCnpj('11.111.111/1111-11')).toBe(false);
    expect(isValidCnpj('1122233300018')).toBe(false);
  });
});
