import { loadAppConfig } from '../../config/app.config.js';
import { HostResolver, type ResolvedAddress } from './host-resolver.js';
import { TargetRefusedError, WebhookTargetPolicy } from './webhook-target-policy.js';

class FakeResolver extends HostResolver {
  constructor(private readonly answers: Record<string, ResolvedAddress[]>) {
    super();
  }

  resolve(host: string): Promise<ResolvedAddress[]> {
    const answer = this.answers[host];
    return answer === undefined ? Promise.reject(new Error('ENOTFOUND')) : Promise.resolve(answer);
  }
}

const resolver = new FakeResolver({
  'erp.example.com': [{ address: '93.184.216.34', family: 4 }],
  'internal.example.com': [{ address: '10.0.0.5', family: 4 }],
  'mixed.example.com': [
    { address: '93.184.216.34', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'metadata.example.com': [{ address: '169.254.169.254', family: 4 }],
});

const policyWith = (env: Record<string, string>) =>
  new WebhookTargetPolicy(
    loadAppConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), ...env }),
    resolver,
  );

const refusal = async (policy: WebhookTargetPolicy, url: string): Promise<string | null> => {
  try {
    await policy.permittedAddresses(url);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(TargetRefusedError);
    return (error as Error).message;
  }
};

describe(WebhookTargetPolicy.name, () => {
  const strict = policyWith({});
  const lenient = policyWith({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });

  it('accepts https to a public host, with the addresses it resolved to', async () => {
    expect(await strict.permittedAddresses('https://erp.example.com/hook')).toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
  });

  it('refuses http unless allowed, and URLs with credentials', async () => {
    expect(await refusal(strict, 'http://erp.example.com/hook')).toBe('must be an https:// URL');
    expect(await refusal(lenient, 'http://erp.example.com/hook')).toBeNull();
    expect(await refusal(strict, 'https://user:pw@erp.example.com/hook')).toBe('must not carry credentials');
    expect(await refusal(strict, 'ftp://erp.example.com/')).toBe('must be an https:// URL');
    expect(await refusal(strict, 'not a url')).toBe('must be an absolute URL');
  });

  it('refuses private targets unless allowed, by name or literal, any address of the host counting', async () => {
    for (const url of [
      'https://internal.example.com/',
      'https://mixed.example.com/',
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://localhost/',
    ]) {
      expect([url, await refusal(strict, url)]).toEqual([url, expect.any(String)]);
    }
    expect(await refusal(lenient, 'https://internal.example.com/')).toBeNull();
    expect(await refusal(lenient, 'https://127.0.0.1:8443/')).toBeNull();
  });

  it('refuses link-local and unspecified targets always', async () => {
    for (const url of [
      'https://169.254.169.254/latest/meta-data/',
      'https://metadata.example.com/',
      'https://[fe80::1]/',
      'https://0.0.0.0/',
      'https://[::ffff:a9fe:a9fe]/',
    ]) {
      expect([url, await refusal(lenient, url)]).toEqual([
        url,
        expect.stringContaining('link-local or unspecified'),
      ]);
    }
  });

  it('refuses a host that does not resolve', async () => {
    expect(await refusal(strict, 'https://nowhere.example.com/')).toBe(
      'host nowhere.example.com does not resolve',
    );
  });
});
