import { createHash } from 'node:crypto';

/**
 * A feed position as an opaque cursor: the position and a checksum of it, base64url. Clients must
 * not build cursors; the checksum makes a mistyped or truncated one a clear 400 instead of a
 * silently different position. Not a secret: a forged cursor only moves a caller within what it
 * may see anyway.
 *
 * The checksum is linear in the position's two 32-bit halves, with odd factors: any change of one
 * character changes the position by an amount the factors cannot cancel, or changes the checksum
 * alone, so it never passes. PostgreSQL writes the same cursors into the changes it stores
 * (`change_cursor`, migration 0011).
 */
const POSITION_BYTES = 8;
const CHECKSUM_BYTES = 4;
const LOW_FACTOR = 1_013_904_243;
const HIGH_FACTOR = 668_265_263;
const OFFSET = 1_779_033_703;
const CURSOR_PATTERN = /^[A-Za-z0-9_-]{16}$/;

export function encodeCursor(position: number): string {
  const bytes = Buffer.alloc(POSITION_BYTES + CHECKSUM_BYTES);
  bytes.writeBigUInt64BE(BigInt(position));
  bytes.writeUInt32BE(checksumOf(position), POSITION_BYTES);
  return bytes.toString('base64url');
}

/** The position a cursor stands for, or `null` when it is not one this service wrote. */
export function decodeCursor(cursor: string): number | null {
  if (!CURSOR_PATTERN.test(cursor)) return null;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length !== POSITION_BYTES + CHECKSUM_BYTES) return null;
  const position = bytes.readBigUInt64BE();
  if (position > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const checksum = bytes.subarray(POSITION_BYTES);
  const valid =
    checksum.readUInt32BE() === checksumOf(Number(position)) ||
    legacyChecksumOf(bytes.subarray(0, POSITION_BYTES)).equals(checksum);
  return valid ? Number(position) : null;
}

export function isCursor(value: string): boolean {
  return decodeCursor(value) !== null;
}

function checksumOf(position: number): number {
  const low = position % 2 ** 32;
  const high = Math.floor(position / 2 ** 32);
  // Math.imul keeps the low 32 bits of each product, as `& 4294967295` does in `change_cursor`.
  return (Math.imul(low, LOW_FACTOR) + Math.imul(high, HIGH_FACTOR) + OFFSET) >>> 0;
}

/**
 * The checksum of the cursors written before 2026-11-23 (a SHA-256 prefix), still accepted so
 * that clients holding one go on. Remove once retention has passed every position they name
 * (`CHANGES_RETENTION_DAYS` after that date): they are 410 by then anyway.
 */
function legacyChecksumOf(position: Buffer): Buffer {
  return createHash('sha256')
    .update('process-changes:')
    .update(position)
    .digest()
    .subarray(0, CHECKSUM_BYTES);
}
