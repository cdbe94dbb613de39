import { updatedRangeDays } from './updated-range-days.js';

describe(updatedRangeDays.name, () => {
  const at = (iso: string) => new Date(iso);

  it('splits a range into its partial first day, whole days and partial last day', () => {
    const sut = updatedRangeDays(at('2026-03-01T10:00:00Z'), at('2026-03-04T06:00:00Z'));
    expect(sut).toEqual({
      wholeDaysFrom: '2026-03-02',
      wholeDaysBefore: '2026-03-04',
      firstEdgeBefore: '2026-03-02T00:00:00.000Z',
      lastEdgeFrom: '2026-03-04T00:00:00.000Z',
    });
  });

  it('has empty edges when the range starts and ends at midnight', () => {
    const sut = updatedRangeDays(at('2026-03-01T00:00:00Z'), at('2026-03-03T00:00:00Z'));
    expect(sut).toEqual({
      wholeDaysFrom: '2026-03-01',
      wholeDaysBefore: '2026-03-03',
      firstEdgeBefore: '2026-03-01T00:00:00.000Z',
      lastEdgeFrom: '2026-03-03T00:00:00.000Z',
    });
  });

  it('makes the first edge the whole range when it holds no whole day, and the last edge empty', () => {
    const sut = updatedRangeDays(at('2026-03-01T10:00:00Z'), at('2026-03-01T12:00:00Z'));
    expect(sut).toEqual({
      wholeDaysFrom: '2026-03-02',
      wholeDaysBefore: '2026-03-01',
      firstEdgeBefore: '2026-03-01T12:00:00.000Z',
      lastEdgeFrom: '2026-03-02T00:00:00.000Z',
    });
  });

  it('leaves the side without a bound open', () => {
    expect(updatedRangeDays(at('2026-03-01T10:00:00Z'), null)).toEqual({
      wholeDaysFrom: '2026-03-02',
      wholeDaysBefore: null,
      firstEdgeBefore: '2026-03-02T00:00:00.000Z',
      lastEdgeFrom: null,
    });
    expect(updatedRangeDays(null, at('2026-03-04T06:00:00Z'))).toEqual({
      wholeDaysFrom: null,
      wholeDaysBefore: '2026-03-04',
      firstEdgeBefore: null,
      lastEdgeFrom: '2026-03-04T00:00:00.000Z',
    });
  });

  it('writes bounds past the year 9999 and before 0001 in UTC as PostgreSQL reads them', () => {
    expect(updatedRangeDays(at('0000-12-31T23:00:00Z'), at('+010000-01-01T00:00:00Z'))).toEqual({
      wholeDaysFrom: '0001-01-01',
      wholeDaysBefore: '10000-01-01',
      firstEdgeBefore: '0001-01-01T00:00:00.000Z',
      lastEdgeFrom: '10000-01-01T00:00:00.000Z',
    });
  });
});
