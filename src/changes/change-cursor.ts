import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';

/**
 * A feed position as an opaque cursor: the position and a checksum of it, base64url. Clients must
 * not build cursors; the checksum makes a mistyped or truncated one a clear 400 instead of a
 * silently different position. Not a secret: a forged cursor only moves a caller within what it
 * may see anyway.
 */
const POSITION_BYTES = 8;
const CHECKSUM_BYTES = 4;
const CHECKSUM_SALT = 'process-changes:';
const CURSOR_PATTERN = /^[A-Za-z0-9_-]{16}$/;

export function encodeCursor(position: number): string {
  const bytes = Buffer.alloc(POSITION_BYTES + CHECKSUM_BYTES);
  bytes.writeBigUInt64BE(BigInt(position));
  checksumOf(bytes.subarray(0, POSITION_BYTES)).copy(bytes, POSITION_BYTES);
  return bytes.toString('base64url');
}

/**
 * {@link encodeCursor} in PostgreSQL, for pages rendered there: the same bytes (`int8send` is the
 * big-endian position), the same checksum, the same alphabet (12 bytes need no padding).
 */
export function sqlCursorOf(position: SQL): SQL {
  const positionBytes = sql`int8send(${position})`;
  const checksum = sql`substr(sha256(${sql.raw(`'${CHECKSUM_SALT}'`)}::bytea || ${positionBytes}), 1, ${sql.raw(String(CHECKSUM_BYTES))})`;
  return sql`translate(encode(${positionBytes} || ${checksum}, 'base64'), '+/', '-_')`;
}

/** The position a cursor stands for, or `null` when it is not one this service wrote. */
export function decodeCursor(cursor: string): number | null {
  if (!CURSOR_PATTERN.test(cursor)) return null;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length !== POSITION_BYTES + CHECKSUM_BYTES) return null;
  const position = bytes.readBigUInt64BE();
  const valid = checksumOf(bytes.subarray(0, POSITION_BYTES)).equals(bytes.subarray(POSITION_BYTES));
  return valid && position <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(position) : null;
}

export function isCursor(value: string): boolean {
  return decodeCursor(value) !== null;
}

function checksumOf(position: Buffer): Buffer {
  return createHash('sha256')
    .update(CHECKSUM_SALT)
    .update(position)
    .digest()
    .subarray(0, CHECKSUM_BYTES);
}
