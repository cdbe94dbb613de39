import { Inject, Injectable, Logger } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { toUtcInstant } from '../common/instant.js';
import { DatabaseService } from '../database/database.service.js';
import { InitialDataState } from '../demo/initial-data.state.js';
import { ShutdownState } from '../lifecycle/shutdown.state.js';
import { OperationsResilience } from '../operations/resilience/operations-resilience.js';
import { RedisConnection } from '../redis/redis.connection.js';
import { SyncService } from '../sync/sync.service.js';

/**
 * Long enough for an embedded PGlite busy with a sync page (its queries run one at a time),
 * short enough for a probe.
 */
export const DATABASE_PING_TIMEOUT_MS = 2000;

/**
 * The components readiness looks at. `database`, `initialData` and `lifecycle` can be `down`
 * (503); the operations system and Redis are only ever `degraded` (an outage
 * there is reported, the service stays ready). No message names a host, a URL or an SQL text.
 */
@Injectable()
export class ReadinessIndicators {
  private readonly logger = new Logger(ReadinessIndicators.name);

  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly database: DatabaseService,
    private readonly initialData: InitialDataState,
    private readonly shutdown: ShutdownState,
    @Inject(OperationsResilience) private readonly resilience: OperationsResilience | null,
    private readonly sync: SyncService,
    private readonly redis: RedisConnection,
  ) {}

  databaseAnswers() {
    return this.indicators
      .check('database')
      .attempt(async () => {
        try {
          await this.database.ping();
        } catch (error) {
          this.logger.warn({ msg: 'readiness: database ping failed', err: error });
          throw new Error('the database did not answer');
        }
        return { driver: this.database.driver };
      })
      .withTimeout(DATABASE_PING_TIMEOUT_MS);
  }

  initialDataReady() {
    const session = this.indicators.check('initialData');
    return this.initialData.isReady
      ? session.up()
      : session.down({ message: 'the initial data is not ready yet (demo mode: first sync running)' });
  }

  notShuttingDown() {
    const session = this.indicators.check('lifecycle');
    return this.shutdown.isShuttingDown ? session.down({ message: 'shutting down' }) : session.up();
  }

  operations() {
    const session = this.indicators.check('operations');
    // The adapter always runs inside the resilience; only a test double put in its place has no circuit.
    const circuit = this.resilience?.circuitState ?? null;
    const last = this.sync.getLastOutcome();
    const report = {
      adapter: this.resilience?.adapter ?? 'built-in',
      ...(circuit !== null && { circuit }),
      lastSync:
        last === null
          ? null
          : {
              status: last.status,
              finishedAt: toUtcInstant(new Date(last.finishedAt)),
              lagSeconds: last.lagSeconds,
            },
    };
    const problems = [
      ...(circuit !== null && circuit !== 'closed' ? [`operations circuit ${circuit}`] : []),
      ...(last?.status === 'failed' ? ['last sync failed'] : []),
    ];
    return problems.length === 0
      ? session.up(report)
      : session.degraded({ ...report, message: problems.join('; ') });
  }

  redisConnection() {
    const session = this.indicators.check('redis');
    const { enabled, available } = this.redis;
    if (!enabled) return session.up({ enabled });
    return available
      ? session.up({ enabled, available })
      : session.degraded({ enabled, available, message: 'Redis is not connected or not answering' });
  }
}
