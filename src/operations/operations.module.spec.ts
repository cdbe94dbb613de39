import { Test } from '@nestjs/testing';
import { AppConfig, loadAppConfig } from '../config/app.config.js';
import { HttpOperationsGateway } from './http/http-operations.gateway.js';
import { OperationsGateway } from './operations.gateway.js';
import { HttpService } from '@nestjs/axios';
import { SystemClock } from '../common/clock.js';
import {
  OPERATIONS_ADAPTERS,
  OperationsModule,
  createOperationsGateway,
  type OperationsAdapterName,
} from './operations.module.js';
import { OperationsResilience } from './resilience/operations-resilience.js';
import { ResilientOperationsGateway } from './resilience/resilient-operations.gateway.js';
import { SimulatedOperationsGateway } from './simulator/simulated-operations.gateway.js';

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

  it('uses the built-in simulator otherwise, with no resilience around it', async () => {
    const { gateway, resilience } = await moduleFor({});

    expect(gateway).toBeInstanceOf(SimulatedOperationsGateway);
    expect(resilience).toBeNull();
    const page = await gateway.listChangedProcesses({ updatedSince: null, cursor: null, limit: 5 });
    expect(page.items.length).toBeGreaterThan(0);
  });

  it.each(Object.keys(OPERATIONS_ADAPTERS) as OperationsAdapterName[])(
    'builds the %s adapter inside the resilience policies exactly when it is remote',
    (name) => {
      const config = loadAppConfig({
        NODE_ENV: 'test',
        OPERATIONS_BASE_URL: 'http://127.0.0.1:9/ops',
        OPERATIONS_API_KEY: 'k',
      });

      const gateway = createOperationsGateway(name, {
        config,
        http: new HttpService(),
        clock: new SystemClock(),
      });

      expect(gateway instanceof ResilientOperationsGateway).toBe(OPERATIONS_ADAPTERS[name].remote);
    },
  );
});
