import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AuthModule } from './auth/auth.module.js';
import { ChangesModule } from './changes/changes.module.js';
import { JwtAuthGuard } from './auth/jwt/jwt-auth.guard.js';
import { ScopeGuard } from './auth/access/scope.guard.js';
import { RouteTable } from './common/http/route-table.js';
import { ProblemDetailsFilter } from './common/problems/problem-details.filter.js';
import { ProblemValidationPipe } from './common/validation/problem-validation.pipe.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { DemoModule } from './demo/demo.module.js';
import { HealthModule } from './health/health.module.js';
import { LegacyTrackingModule } from './legacy-tracking/legacy-tracking.module.js';
import { LifecycleModule } from './lifecycle/lifecycle.module.js';
import { LoggingModule } from './logging/logging.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { ProcessesModule } from './processes/processes.module.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { UserRateLimitGuard } from './rate-limit/user-rate-limit.guard.js';
import { RedisModule } from './redis/redis.module.js';
import { RequestActivityModule } from './common/http/request-activity.js';
import { SyncModule } from './sync/sync.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

@Module({
  imports: [
    ConfigModule,
    LoggingModule,
    // app.setup.ts registers its middleware: every request counts.
    RequestActivityModule,
    LifecycleModule,
    MetricsModule,
    DatabaseModule,
    RedisModule,
    RateLimitModule,
    AuthModule,
    ProcessesModule,
    ChangesModule,
    WebhooksModule,
    LegacyTrackingModule,
    SyncModule,
    DemoModule,
    HealthModule,
  ],
  providers: [
    RouteTable,
    { provide: APP_GUARD, useClass: JwtAuthGuard },
    // Global guards run in this order: the per-user limit needs the user the JWT guard resolved,
    // and a 403 for a missing scope carries the limit's headers like any other answer.
    { provide: APP_GUARD, useClass: UserRateLimitGuard },
    { provide: APP_GUARD, useClass: ScopeGuard },
    { provide: APP_PIPE, useClass: ProblemValidationPipe },
    { provide: APP_FILTER, useClass: ProblemDetailsFilter },
  ],
})
export class AppModule {}
