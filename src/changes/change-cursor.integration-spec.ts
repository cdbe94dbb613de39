import { sql } from 'drizzle-orm';
import { connectTestDatabase, TEST_DATABASE_TARGETS } from '../testing/test-database.js';
import type { DatabaseService } from '../database/database.service.js';
import { rowsOf } from '../database/sql-rows.js';
import { decodeCursor, encodeCursor } from './change-cursor.js';

const POSITIONS = [0, 1, 499, 2 ** 40, Number.MAX_SAFE_INTEGER];

describe('change cursors', () => {
  it.each(POSITIONS)('round-trips position %i', (position) => {
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

  it('refuses every cursor one character away from one it wrote', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (const position of [...POSITIONS, 5_200_000, 123_456_789_012]) {
      const cursor = encodeCursor(position);
      for (let index = 0; index < cursor.length; index++) {
        for (const character of alphabet.replace(cursor[index]!, '')) {
          const typo = `${cursor.slice(0, index)}${character}${cursor.slice(index + 1)}`;
          expect([typo, decodeCursor(typo)]).toEqual([typo, null]);
        }
      }
    }
  });

  it.each([
    ['AAAAAAAAAAOud2pE', 3],
    ['AAAAAAAAAAQ-J4w1', 4],
    ['AAAAAABPWIDMA6B2', 5_200_000],
  ])('still reads %s, written by the previous checksum, as position %i', (cursor, position) => {
    expect(decodeCursor(cursor)).toBe(position);
  });

  describe.each(TEST_DATABASE_TARGETS)('written by PostgreSQL (%s)', (target) => {
    let database: DatabaseService;
    let dispose: () => Promise<void>;

    beforeAll(async () => {
      ({ database, dispose } = await connectTestDatabase(target));
    });

    afterAll(() => dispose());

    it('matches the service’s own, byte for byte, including the alphabet’s - and _', async () => {
      // Enough positions that some cursors hold every base64url character, - and _ among them.
      const positions = [...POSITIONS, ...Array.from({ length: 300 }, (_, i) => 7919 * i ** 3 + i)];
      const rows = await rowsOf<{ cursor: string }>(
        database.db,
        sql`SELECT change_cursor(p) AS cursor
              FROM unnest(${`{${positions.join(',')}}`}::bigint[]) WITH ORDINALITY AS u(p, n) ORDER BY n`,
      );
      const written = rows.map((row) => row.cursor);

      expect(written).toEqual(positions.map(encodeCursor));
      expect(written.join('')).toMatch(/-/);
      expect(written.join('')).toMatch(/_/);
    });
  });
});
