import { sqlDateValue, sqlTimestampValue } from './sql-instant.js';

describe(sqlTimestampValue.name, () => {
  it.each([
    ['2026-03-14T12:00:00.000Z', '2026-03-14T12:00:00.000Z'],
    ['+010000-01-01T00:00:00.000Z', '10000-01-01T00:00:00.000Z'],
    ['0001-01-01T00:00:00.000Z', '0001-01-01T00:00:00.000Z'],
    ['0000-12-31T23:00:00.000Z', '0001-12-31T23:00:00.000Z BC'],
    ['-000001-12-31T23:00:00.000Z', '0002-12-31T23:00:00.000Z BC'],
  ])('writes %s as %s', (iso, expected) => {
    expect(sqlTimestampValue(new Date(iso))).toBe(expected);
  });
});

describe(sqlDateValue.name, () => {
  it.each([
    ['2026-03-14T12:00:00.000Z', '2026-03-14'],
    ['+010000-01-02T00:00:00.000Z', '10000-01-02'],
    ['0000-12-31T23:00:00.000Z', '0001-12-31 BC'],
  ])('writes the day of %s as %s', (iso, expected) => {
    expect(sqlDateValue(Date.parse(iso))).toBe(expected);
  });
});
