import { loadAppConfig } from '../config/app.config.js';
import { problemWith } from '../testing/configuration.js';

const SECRET = 'x'.repeat(32);

describe('JWT_SECRET', () => {
  it('is required in production', () => {
    expect(problemWith({ NODE_ENV: 'production' })).toContain('JWT_SECRET: is required in production');
  });

  it('must be at least 32 bytes in production, reported once', () => {
    const message = problemWith({ NODE_ENV: 'production', JWT_SECRET: 'short' });

    expect(message).toContain('JWT_SECRET: must be at least 32 bytes long');
    expect(message.match(/JWT_SECRET:/g)).toHaveLength(1);
  });

  it.each(['development', 'test'])('is generated in %s when missing, and flagged', (nodeEnv) => {
    const first = loadAppConfig({ NODE_ENV: nodeEnv });
    const second = loadAppConfig({ NODE_ENV: nodeEnv });

    expect(first.jwt.secretGenerated).toBe(true);
    expect(Buffer.byteLength(first.jwt.secret)).toBeGreaterThanOrEqual(32);
    expect(first.jwt.secret).not.toBe(second.jwt.secret);
  });

  it('is taken as given and not flagged when set', () => {
    expect(loadAppConfig({ JWT_SECRET: SECRET }).jwt).toMatchObject({
      secret: SECRET,
      secretGenerated: false,
    });
  });
});
