import { AppConfig, loadAppConfig } from '../../../config/app.config.js';
import { configFromThreadData } from './delivery-thread-protocol.js';

describe('configFromThreadData', () => {
  it('gives the thread the configuration the service loaded, its generated secrets and key included', () => {
    // No JWT_SECRET: a random one, which the thread could not make again from the environment.
    const loaded = loadAppConfig({ DATABASE_URL: 'postgres://db.internal/lookup' });
    const received = configFromThreadData(structuredClone(loaded));

    expect(received).toBeInstanceOf(AppConfig);
    expect(received).toEqual(loaded);
    expect(Buffer.isBuffer(received.webhooks.secretKey)).toBe(true);
    expect(received.webhooks.secretKey.equals(loaded.webhooks.secretKey)).toBe(true);
  });
});
