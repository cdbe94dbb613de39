import { SandboxClock, parseDuration } from './sandbox-clock.js';

describe(SandboxClock.name, () => {
  let wall = Date.parse('2026-03-14T12:00:00Z');
  const clock = (): SandboxClock => new SandboxClock(() => wall);

  beforeEach(() => {
    wall = Date.parse('2026-03-14T12:00:00Z');
  });

  it('follows the machine clock until frozen, then stands still', () => {
    const sut = clock();
    wall += 5000;
    expect(sut.now().toISOString()).toBe('2026-03-14T12:00:05.000Z');
    sut.freeze();
    wall += 60_000;
    expect(sut.state()).toEqual({ now: '2026-03-14T12:00:05.000Z', frozen: true });
  });

  it('advances frozen or running, and resumes from where it stood', () => {
    const sut = clock();
    sut.freeze();
    sut.advance(parseDuration('PT6H'));
    expect(sut.now().toISOString()).toBe('2026-03-14T18:00:00.000Z');
    sut.resume();
    wall += 1000;
    expect(sut.state()).toEqual({ now: '2026-03-14T18:00:01.000Z', frozen: false });
    sut.advance(parseDuration('P1D'));
    expect(sut.now().toISOString()).toBe('2026-03-15T18:00:01.000Z');
  });

  it('never moves backwards', () => {
    expect(() => clock().advance(-1)).toThrow(RangeError);
  });
});

describe(parseDuration.name, () => {
  it.each([
    ['PT6H', 6 * 3_600_000],
    ['P2DT30M', 2 * 86_400_000 + 30 * 60_000],
    ['PT1.5S', 1500],
    ['P1D', 86_400_000],
  ])('reads %s', (text, expected) => {
    expect(parseDuration(text)).toBe(expected);
  });

  it.each(['', 'P', 'PT', '6H', 'P1W', 'PT-1H', 'P1Y'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeNaN();
  });
});
