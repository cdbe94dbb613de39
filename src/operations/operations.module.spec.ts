import { Test } from '@nestjs/testing';
import { AppConfig, loadAppConfig } from '../config/app.config.js';
import { HttpOperationsGateway } from './http/http-operations.gateway.js';
import { OperationsGateway } from './operations.gateway.js';
import { OperationsModule } from './operations.module.js';
import { SimulatedOperationsGateway } from './simulator/simulated-operations.gateway.js';

async function gatewayFor(env: NodeJS.ProcessEnv): Promise<OperationsGateway> {
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
  return moduleRef.get(OperationsGateway);
}

describe(OperationsModule.name, () => {
  it('uses the HTTP adapter when OPERATIONS_BASE_URL is set', async () => {
    const gateway = await gatewayFor({
      OPERATIONS_BASE_URL: 'http://127.0.0.1:9/ops',
      OPERATIONS_API_KEY: 'k',
    });

    expect(gateway).toBeInstanceOf(HttpOperationsGateway);
  });

  it('uses the built-in simulator otherwise', async () => {
    const gateway = await gatewayFor({});

    expect(gateway).toBeInstanceOf(SimulatedOperationsGateway);
    const page = await gateway.listChangedProcesses({ updatedSince: null, cursor: null, limit: 5 });
    expect(page.items.length).toBeGreaterThan(0);
  });
});
