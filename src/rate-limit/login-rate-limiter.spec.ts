import { jest } from '@jest/globals';
import { FakeClock } from '../testing/fake-clock.js';
import { ProblemException } from '../common/problems/problem.exception.js';
import type { RateLimitMetrics, RateLimiterName } from './rate-limit.metrics.js';
import { LoginRateLimiter, normalizeUsername } from './login-rate-limiter.js';
import { MemoryRateLimitStore } from './memory-rate-limit.store.js';

const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;

describe(LoginRateLimiter.name, () => {
  let clock: FakeClock;
  let store: MemoryRateLimitStore;
  let rejected: jest.Mock<(limiter: RateLimiterName) => void>;
  let sut: LoginRateLimiter;

  beforeEach(() => {
    clock = new FakeClock();
    store = new MemoryRateLimitStore(clock);
    rejected = jest.fn();
    sut = new LoginRateLimiter(store, { rejected } as unknown as RateLimitMetrics);
  });

  /** `times` failed attempts (begun and left counted). */
  async function fail(
    times: number,
    username: (attempt: number) => string,
    address: (attempt: number) => string,
  ) {
    for (let attempt = 0; attempt < times; attempt += 1) await sut.begin(username(attempt), address(attempt));
  }

  async function refusal(username: string, address: string): Promise<ProblemException> {
    const error = await sut.begin(username, address).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ProblemException);
    return error as ProblemException;
  }

  it('refuses a user name from one address after 10 failures there, with Retry-After to the window end', async () => {
    await fail(
      10,
      () => 'acme',
      () => '198.51.100.1',
    );
    clock.advance(60_000);

    const problem = await refusal('acme', '198.51.100.1');
    expect(problem.problem.status).toBe(429);
    expect(problem.problemOptions).toEqual({
      detail: 'Too many failed login attempts; try again later',
      headers: { 'Retry-After': '840' },
    });
    expect(rejected).toHaveBeenCalledWith('login-username-address');
  });

  it('does not lock that user name from another address', async () => {
    await fail(
      10,
      () => 'acme',
      () => '198.51.100.1',
    );
    await expect(sut.begin('acme', '198.51.100.2')).resolves.toBeDefined();
  });

  it('refuses every user name from an address after 50 failures from it', async () => {
    await fail(
      50,
      (attempt) => `guess-${attempt}`,
      () => '203.0.113.7',
    );
    await refusal('someone-else', '203.0.113.7');
    expect(rejected).toHaveBeenCalledWith('login-address');
    await expect(sut.begin('someone-else', '203.0.113.8')).resolves.toBeDefined();
  });

  it('refuses a user name from every address after 100 failures from all of them', async () => {
    await fail(
      100,
      () => 'acme',
      (attempt) => `192.0.2.${attempt + 1}`,
    );
    await refusal('acme', '192.0.2.200');
    expect(rejected).toHaveBeenCalledWith('login-username');
    await expect(sut.begin('other', '192.0.2.200')).resolves.toBeDefined();
  });

  it('counts spellings of one user name as one, and an IPv6 /64 as one address', async () => {
    const spellings = ['acme', 'ACME', ' Acme', 'acme ', '  aCmE  '];
    await fail(
      10,
      (attempt) => spellings[attempt % spellings.length]!,
      (attempt) => `2001:db8:1:2::${attempt + 1}`,
    );
    await refusal('Acme', '2001:db8:1:2:ffff::1');
  });

  it('lets attempts through again once the window has passed', async () => {
    await fail(
      10,
      () => 'acme',
      () => '198.51.100.1',
    );
    clock.advance(FIFTEEN_MINUTES_MS);
    await expect(sut.begin('acme', '198.51.100.1')).resolves.toBeDefined();
  });

  it('gives a success back and forgets the failures of that name from that address', async () => {
    await fail(
      9,
      () => 'acme',
      () => '198.51.100.1',
    );
    await (await sut.begin('acme', '198.51.100.1')).succeeded();

    await fail(
      9,
      () => 'acme',
      () => '198.51.100.1',
    );
    await expect(sut.begin('acme', '198.51.100.1')).resolves.toBeDefined();
  });

  it('keeps the failures of the address after a success there', async () => {
    await fail(
      49,
      (attempt) => `guess-${attempt}`,
      () => '198.51.100.1',
    );
    await (await sut.begin('acme', '198.51.100.1')).succeeded();

    await fail(
      1,
      () => 'acme',
      () => '198.51.100.1',
    );
    await refusal('acme', '198.51.100.1');
    expect(rejected).toHaveBeenLastCalledWith('login-address');
  });

  it('gives an abandoned attempt back in every window', async () => {
    await fail(
      9,
      () => 'acme',
      () => '198.51.100.1',
    );
    for (let attempt = 0; attempt < 5; attempt += 1)
      await (await sut.begin('acme', '198.51.100.1')).abandon();
    await fail(
      1,
      () => 'acme',
      () => '198.51.100.1',
    );
    await refusal('acme', '198.51.100.1');
  });

  it('stores no user name in clear', async () => {
    const reserve = jest.spyOn(store, 'reserve');
    await sut.begin('Acme', '198.51.100.1');
    const keys = reserve.mock.calls[0]![0].map((window) => window.key);
    expect(keys).toHaveLength(3);
    expect(keys.join(' ')).not.toMatch(/acme/i);
    expect(keys).toContain('login:address:198.51.100.1');
  });
});

describe(normalizeUsername.name, () => {
  it.each([
    [' ACME  Corp ', 'acme corp'],
    ['ａｃｍｅ', 'acme'],
    ['acme\t\nuser', 'acme user'],
  ])('counts %j as %j', (username, normalized) => {
    expect(normalizeUsername(username)).toBe(normalized);
  });
});
