import { isCalendarDate, isInstant } from './query-parameters.js';

describe(isCalendarDate.name, () => {
  it.each(['0001-01-01', '0099-12-31', '2024-02-29', '9999-12-31'])('takes %s', (value) => {
    expect(isCalendarDate(value)).toBe(true);
  });

  it.each(['0000-12-31', '2026-02-29', '2026-13-01', '10000-01-01', '+010000-01-01'])(
    'refuses %s',
    (value) => {
      expect(isCalendarDate(value)).toBe(false);
    },
  );
});

describe(isInstant.name, () => {
  it.each(['0001-01-01T00:00:00+01:00', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59-01:00'])(
    'takes %s',
    (value) => {
      expect(isInstant(value)).toBe(true);
    },
  );

  it.each(['0000-01-01T00:00:00Z', '+010000-01-01T00:00:00Z'])('refuses %s', (value) => {
    expect(isInstant(value)).toBe(false);
  });
});
