import type { SignInsRepository } from './sign-ins.repository.js';
import { SignInStatus } from './sign-in-status.service.js';

const SIGN_IN = '1b7e0c52-9d1f-4e8a-b3c6-5a2f8d0e7c41';

describe(SignInStatus.name, () => {
  let asked: string[];
  let ended: boolean;
  let sut: SignInStatus;

  beforeEach(() => {
    asked = [];
    ended = false;
    sut = new SignInStatus({
      hasEnded: (id: string) => {
        asked.push(id);
        return Promise.resolve(ended);
      },
    } as SignInsRepository);
  });

  it('asks the database once, then answers from memory within its time', async () => {
    expect(await sut.hasEnded(SIGN_IN)).toBe(false);
    ended = true;

    expect(await sut.hasEnded(SIGN_IN)).toBe(false);
    expect(asked).toEqual([SIGN_IN]);
  });

  it('knows at once of a sign-in this instance ended', async () => {
    await sut.hasEnded(SIGN_IN);
    sut.markEnded(SIGN_IN);

    expect(await sut.hasEnded(SIGN_IN)).toBe(true);
    expect(asked).toEqual([SIGN_IN]);
  });
});
