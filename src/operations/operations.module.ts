import { HttpModule, HttpService } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module.js';
import { AppConfig, ConfigurationError } from '../config/app.config.js';
import { HttpOperationsGateway } from './http/http-operations.gateway.js';
import { OperationsGateway } from './operations.gateway.js';
import { OperationsMetrics } from './operations.metrics.js';
import { OperationsResilience } from './resilience/operations-resilience.js';
import {
  ResilientOperationsGateway,
  defaultResilienceOptions,
} from './resilience/resilient-operations.gateway.js';

/** What an adapter may be built from. */
export interface OperationsAdapterDependencies {
  config: AppConfig;
  http: HttpService;
}

/**
 * The operations system over HTTP, always inside `ResilientOperationsGateway`: no adapter comes
 * without timeouts, retries, the breaker, metrics and readiness. Another system's adapter replaces
 * `HttpOperationsGateway` here and is wrapped the same way.
 */
export function createOperationsGateway({ config, http }: OperationsAdapterDependencies): OperationsGateway {
  if (config.operations.baseUrl === null) {
    throw new ConfigurationError(
      'Invalid configuration:\n  OPERATIONS_BASE_URL: required (npm start sets it to its sandbox in demo mode)',
    );
  }
  return new ResilientOperationsGateway(
    'http',
    new HttpOperationsGateway(http, config),
    defaultResilienceOptions(config.operations.timeoutMs),
  );
}

/** The resilience around the gateway, for metrics and readiness; `null` when it has none. */
export function resilienceOf(gateway: OperationsGateway): OperationsResilience | null {
  return gateway instanceof ResilientOperationsGateway ? gateway : null;
}

@Module({
  imports: [HttpModule, MetricsModule],
  providers: [
    {
      provide: OperationsGateway,
      inject: [AppConfig, HttpService],
      useFactory: (config: AppConfig, http: HttpService) => createOperationsGateway({ config, http }),
    },
    { provide: OperationsResilience, inject: [OperationsGateway], useFactory: resilienceOf },
    OperationsMetrics,
  ],
  exports: [OperationsGateway, OperationsResilience],
})
export class OperationsModule {}
