import type { MessagePort } from 'node:worker_threads';
import { Module, type DynamicModule } from '@nestjs/common';
import { RequestActivity } from '../../../common/http/request-activity.js';
import { AppConfig } from '../../../config/app.config.js';
import { DatabaseService } from '../../../database/database.service.js';
import { DeliveryMetrics } from '../delivery-metrics.js';
import { ThreadDeliveryMetrics } from './thread-delivery-metrics.js';

/**
 * Delivery's surroundings on a delivery thread: the service's configuration, a connection pool of
 * the thread's own (the service has migrated the database already), the API's request activity
 * read through the shared record, and metrics reported to the service.
 */
@Module({})
export class ThreadDeliveryHostModule {
  static for(config: AppConfig, activity: SharedArrayBuffer, service: MessagePort): DynamicModule {
    return {
      module: ThreadDeliveryHostModule,
      global: true,
      providers: [
        { provide: AppConfig, useValue: config },
        // Closed at shutdown, as the service's own; a factory's instance gets the lifecycle hooks.
        // Delivery's prepared statements plan alike for any subscription: their generic plans
        // spare PostgreSQL a planning per delivery.
        {
          provide: DatabaseService,
          useFactory: () => DatabaseService.connect({ ...config.database, customPlans: false }),
        },
        { provide: RequestActivity, useValue: new RequestActivity(activity) },
        { provide: DeliveryMetrics, useFactory: () => new ThreadDeliveryMetrics(service) },
      ],
      exports: [AppConfig, DatabaseService, RequestActivity, DeliveryMetrics],
    };
  }
}
