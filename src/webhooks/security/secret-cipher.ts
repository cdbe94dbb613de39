import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app.config.js';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The stored format's version: `v1.` then base64url of IV, tag and ciphertext. */
const VERSION = 'v1.';

/**
 * Encrypts webhook secrets at rest with AES-256-GCM under the configured key
 * (`WEBHOOK_SECRET_KEY`): a copy of the database alone does not let anyone sign deliveries.
 * Each encryption has its own random IV; the tag makes a tampered or foreign value fail to open.
 */
@Injectable()
export class SecretCipher {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    this.key = config.webhooks.secretKey;
  }

  encrypt(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
  }

  /** The plain secret; throws when the value was not encrypted under this key. */
  decrypt(stored: string): string {
    if (!stored.startsWith(VERSION)) throw new Error('not an encrypted webhook secret');
    const bytes = Buffer.from(stored.slice(VERSION.length), 'base64url');
    const decipher = createDecipheriv(ALGORITHM, this.key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  }
}
