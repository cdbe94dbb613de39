import { HttpModule, HttpService } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module.js';
import { Clock } from '../common/clock.js';
import { ClockModule } from '../common/clock.module.js';
import { AppConfig } from '../config/app.config.js';
import { HttpOperationsGateway } from './http/http-operations.gateway.js';
import { OperationsGateway } from './operations.gateway.js';
import { OperationsMetrics } from './operations.metrics.js';
import { OperationsResilience } from './resilience/operations-resilience.js';
import {
  ResilientOperationsGateway,
  defaultResilienceOptions,
} from './resilience/resilient-operations.gateway.js';
import { SimulatedOperationsGateway } from './simulator/simulated-operations.gateway.js';
import { demoSimulationOptions } from './simulator/simulation-options.js';

/** What an adapter may be built from. */
export interface OperationsAdapterDependencies {
  config: AppConfig;
  http: HttpService;
  clock: Clock;
}

/**
 * Every adapter of the port, declared once. A `remote` adapter is built by
 * {@link createOperationsGateway} inside `ResilientOperationsGateway`, so it cannot come without
 * timeouts, retries, the breaker, metrics and readiness; only an in-process one has nothing to guard.
 */
export const OPERATIONS_ADAPTERS = {
  simulator: {
    remote: false,
    create: ({ clock }: OperationsAdapterDependencies): OperationsGateway =>
      new SimulatedOperationsGateway(demoSimulationOptions(clock.now()), clock),
  },
  http: {
    remote: true,
    create: ({ config, http }: OperationsAdapterDependencies): OperationsGateway =>
      new HttpOperationsGateway(http, config),
  },
} as const satisfies Record<
  string,
  { remote: boolean; create: (deps: OperationsAdapterDependencies) => OperationsGateway }
>;

export type OperationsAdapterName = keyof typeof OPERATIONS_ADAPTERS;

/** `OPERATIONS_BASE_URL` set: the real operations system over HTTP. Unset: the built-in simulator. */
export function selectOperationsAdapter(config: AppConfig): OperationsAdapterName {
  return config.operations.baseUrl === null ? 'simulator' : 'http';
}

/** The named adapter, wrapped in the resilience policies when it is remote. */
export function createOperationsGateway(
  name: OperationsAdapterName,
  deps: OperationsAdapterDependencies,
): OperationsGateway {
  const adapter = OPERATIONS_ADAPTERS[name];
  const gateway = adapter.create(deps);
  if (!adapter.remote) return gateway;
  return new ResilientOperationsGateway(
    name,
    gateway,
    defaultResilienceOptions(deps.config.operations.timeoutMs),
  );
}

/** The resilience around the gateway, for metrics and readiness; `null` when it has none. */
export function resilienceOf(gateway: OperationsGateway): OperationsResilience | null {
  return gateway instanceof ResilientOperationsGateway ? gateway : null;
}

@Module({
  imports: [ClockModule, HttpModule, MetricsModule],
  providers: [
    {
      provide: OperationsGateway,
      inject: [AppConfig, HttpService, Clock],
      useFactory: (config: AppConfig, http: HttpService, clock: Clock) =>
        createOperationsGateway(selectOperationsAdapter(config), { config, http, clock }),
    },
    { provide: OperationsResilience, inject: [OperationsGateway], useFactory: resilienceOf },
    OperationsMetrics,
  ],
  exports: [OperationsGateway, OperationsResilience],
})
export class OperationsModule {}
