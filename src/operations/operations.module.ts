import { HttpModule, HttpService } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app.config.js';
import { HttpOperationsGateway } from './http/http-operations.gateway.js';
import { OperationsGateway } from './operations.gateway.js';
import { SimulatedOperationsGateway } from './simulator/simulated-operations.gateway.js';
import { demoSimulationOptions } from './simulator/simulation-options.js';

/**
 * `OPERATIONS_BASE_URL` set: the real operations system over HTTP. Unset: the
 * built-in simulator, in process, on the demo data set laid out around the current day.
 */
export function createOperationsGateway(config: AppConfig, http: HttpService): OperationsGateway {
  if (config.operations.baseUrl === null) {
    const clock = () => new Date();
    return new SimulatedOperationsGateway(demoSimulationOptions(clock()), clock);
  }
  return new HttpOperationsGateway(http, config);
}

@Module({
  imports: [HttpModule],
  providers: [
    { provide: OperationsGateway, inject: [AppConfig, HttpService], useFactory: createOperationsGateway },
  ],
  exports: [OperationsGateway],
})
export class OperationsModule {}
