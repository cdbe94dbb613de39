import { decodeCursor, encodeCursor } from './change-cursor.js';

describe('change cursors', () => {
  it.each([0, 1, 499, 2 ** 40, Number.MAX_SAFE_INTEGER])('round-trips position %i', (position) => {
    const cursor = encodeCursor(position);

    expect(cursor).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(decodeCursor(cursor)).toBe(position);
  });

  it('refuses what it did not write: other lengths, other alphabets, a changed character', () => {
    const cursor = encodeCursor(1234);
    const flipped = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;

    for (const malformed of [
      '',
      'abc',
      `${cursor}A`,
      cursor.slice(1),
      cursor.replace(/./, '+'),
      flipped,
      '1234',
    ]) {
      expect(decodeCursor(malformed)).toBeNull();
    }
  });
});
