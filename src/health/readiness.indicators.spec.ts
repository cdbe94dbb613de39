import { HealthIndicatorService } from '@nestjs/terminus';
import type { DatabaseService } from '../database/database.service.js';
import type { InitialDataState } from '../demo/initial-data.state.js';
import { ShutdownState } from '../lifecycle/shutdown.state.js';
import type {
  OperationsCircuitState,
  OperationsResilience,
} from '../operations/resilience/operations-resilience.js';
import type { RedisConnection } from '../redis/redis.connection.js';
import type { SyncService } from '../sync/sync.service.js';
import { ReadinessIndicators } from './readiness.indicators.js';

function httpGatewayIn(state: OperationsCircuitState): OperationsResilience {
  return { adapter: 'http', circuitState: state, addObserver: () => () => undefined };
}

describe(ReadinessIndicators.name, () => {
  const sutWith = (resilience: OperationsResilience | null) =>
    new ReadinessIndicators(
      new HealthIndicatorService(),
      {} as DatabaseService,
      { isReady: true } as InitialDataState,
      new ShutdownState(),
      resilience,
      { getLastOutcome: () => null } as unknown as SyncService,
      { enabled: false, available: false } as RedisConnection,
    );

  it('reports the HTTP adapter with a closed circuit as up', () => {
    expect(sutWith(httpGatewayIn('closed')).operations()).toEqual({
      operations: { status: 'up', adapter: 'http', circuit: 'closed', lastSync: null },
    });
  });

  it('reports a gateway without resilience around it (a test double) without a circuit', () => {
    expect(sutWith(null).operations()).toEqual({
      operations: { status: 'up', adapter: 'built-in', lastSync: null },
    });
  });

  it.each(['open', 'half-open'] as const)('reports a %s circuit as degraded, never down', (state) => {
    expect(sutWith(httpGatewayIn(state)).operations()).toEqual({
      operations: {
        status: 'degraded',
        adapter: 'http',
        circuit: state,
        lastSync: null,
        message: `operations circuit ${state}`,
      },
    });
  });

  it('turns the lifecycle check down once shutting down begins', () => {
    const shutdown = new ShutdownState();
    const sut = new ReadinessIndicators(
      new HealthIndicatorService(),
      {} as DatabaseService,
      { isReady: true } as InitialDataState,
      shutdown,
      httpGatewayIn('closed'),
      { getLastOutcome: () => null } as unknown as SyncService,
      { enabled: false, available: false } as RedisConnection,
    );
    expect(sut.notShuttingDown()).toEqual({ lifecycle: { status: 'up' } });
    shutdown.begin('SIGTERM');
    expect(sut.notShuttingDown()).toEqual({ lifecycle: { status: 'down', message: 'shutting down' } });
  });
});
