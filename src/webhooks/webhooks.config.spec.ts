import { loadAppConfig } from '../config/app.config.js';
import { problemWith } from '../testing/configuration.js';

const SECRET = 'x'.repeat(32);

describe('webhooks configuration', () => {
  const production = { NODE_ENV: 'production', JWT_SECRET: SECRET };

  it('allows http and private targets in demo mode only, unless told otherwise', () => {
    expect(loadAppConfig({}).webhooks).toMatchObject({ allowHttp: true, allowPrivateTargets: true });
    expect(loadAppConfig(production).webhooks).toMatchObject({
      allowHttp: false,
      allowPrivateTargets: false,
    });
    expect(
      loadAppConfig({ ...production, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })
        .webhooks,
    ).toMatchObject({ allowHttp: true, allowPrivateTargets: true });
    expect(loadAppConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).webhooks.allowPrivateTargets).toBe(
      false,
    );
  });

  it('reads the secrets key, or derives one from the JWT secret', () => {
    const key = Buffer.alloc(32, 7);
    const configured = loadAppConfig({ ...production, WEBHOOK_SECRET_KEY: key.toString('base64') });
    const derived = loadAppConfig(production);

    expect(configured.webhooks).toMatchObject({ secretKey: key, secretKeyDerived: false });
    expect(derived.webhooks.secretKeyDerived).toBe(true);
    expect(derived.webhooks.secretKey).toHaveLength(32);
    expect(loadAppConfig(production).webhooks.secretKey).toEqual(derived.webhooks.secretKey);
  });

  it.each(['short', Buffer.alloc(16).toString('base64'), `${'A'.repeat(43)}`])(
    'refuses the key %j',
    (value) => {
      expect(problemWith({ WEBHOOK_SECRET_KEY: value })).toContain(
        'WEBHOOK_SECRET_KEY: must be 32 bytes in base64',
      );
    },
  );

  it('delivers on a thread of its own with a PostgreSQL server, in-process on PGlite, unless told', () => {
    const server = { ...production, DATABASE_URL: 'postgres://db.internal/lookup' };
    expect(loadAppConfig(server).webhooks.delivery).toBe('thread');
    expect(loadAppConfig({}).webhooks.delivery).toBe('in-process');
    expect(loadAppConfig({ ...server, WEBHOOK_DELIVERY: 'in-process' }).webhooks.delivery).toBe('in-process');
  });

  it('refuses a delivery thread on PGlite, and places other than thread or in-process', () => {
    expect(problemWith({ WEBHOOK_DELIVERY: 'thread' })).toContain(
      'WEBHOOK_DELIVERY: thread needs DATABASE_URL',
    );
    expect(problemWith({ WEBHOOK_DELIVERY: 'process' })).toContain(
      'WEBHOOK_DELIVERY: must be thread or in-process',
    );
  });

  it('refuses flags other than true or false', () => {
    expect(problemWith({ WEBHOOK_ALLOW_HTTP: 'yes' })).toContain('WEBHOOK_ALLOW_HTTP: must be true or false');
  });
});
