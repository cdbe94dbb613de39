import { HttpModule, HttpService } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { ClockModule } from '../common/clock.module.js';
import { AppConfig } from '../config/app.config.js';
import { HttpOperationsGateway } from './http/http-operations.gateway.js';
import { OperationsGateway } from './operations.gateway.js';
import { OperationsResilience } from './resilience/operations-resilience.js';
import {
  ResilientOperationsGateway,
  defaultResilienceOptions,
} from './resilience/resilient-operations.gateway.js';
import { SimulatedOperationsGateway } from './simulator/simulated-operations.gateway.js';
import { demoSimulationOptions } from './simulator/simulation-options.js';

/**
 * `OPERATIONS_BASE_URL` set: the real operations system over HTTP, behind the resilience
 * policies. Unset: the built-in simulator, in process, on the demo data set laid out around the
 * current day.
 */
export function createOperationsGateway(
  config: AppConfig,
  http: HttpService,
  clock: Clock,
): OperationsGateway {
  if (config.operations.baseUrl === null) {
    // In process: nothing to time out, retry or break, so no resilience (and no circuit to report).
    return new SimulatedOperationsGateway(demoSimulationOptions(clock.now()), clock);
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
  imports: [ClockModule, HttpModule],
  providers: [
    {
      provide: OperationsGateway,
      inject: [AppConfig, HttpService, Clock],
      useFactory: createOperationsGateway,
    },
    { provide: OperationsResilience, inject: [OperationsGateway], useFactory: resilienceOf },
  ],
  exports: [OperationsGateway, OperationsResilience],
})
export class OperationsModule {}
