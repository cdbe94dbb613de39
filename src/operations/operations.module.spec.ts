import { Test } from '@nestjs/testing';
import { AppConfig, loadAppConfig } from '../config/app.config.js';
import { HttpOperationsGateway } from './http/http-operations.gateway.js';
import { OperationsGateway } from './operations.gateway.js';
import { OperationsModule } from './operations.module.js';
import { OperationsResilience } from './resilience/operations-resilience.js';
import { ResilientOperationsGateway } from './resilience/resilient-operations.gateway.js';

async function moduleFor(env: NodeJS.ProcessEnv) {
  const config = loadAppConfig({ NODE_ENV: 'test', ...env });
  const moduleRef = await Test.createTestingModule({
    imports: [
      {
        module: class TestConfigModule {},
        global: true,
        providers: [{ provide: AppConfig, useValue: config }],
        exports: [AppConfig],
      },
      OperationsModule,
    ],
  }).compile();
  return {
    gateway: moduleRef.get(OperationsGateway),
    resilience: moduleRef.get<OperationsResilience | null>(OperationsResilience),
  };
}

describe(OperationsModule.name, () => {
  it('uses the HTTP adapter behind the resilience policies when OPERATIONS_BASE_URL is set', async () => {
    const { gateway, resilience } = await moduleFor({
      OPERATIONS_BASE_URL: 'http://127.0.0.1:9/ops',
      OPERATIONS_API_KEY: 'k',
    });

    expect(gateway).toBeInstanceOf(ResilientOperationsGateway);
    expect(resilience).toBe(gateway);
    expect(resilience).toMatchObject({ adapter: 'http', circuitState: 'closed' });
    expect((gateway as unknown as { inner: unknown }).inner).toBeInstanceOf(HttpOperationsGateway);
  });

  it('refuses to start without OPERATIONS_BASE_URL, naming the variable', async () => {
    await expect(moduleFor({})).rejects.toThrow(/OPERATIONS_BASE_URL: required/);
  });
});
