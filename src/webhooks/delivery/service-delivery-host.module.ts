import { Module } from '@nestjs/common';
import { RequestActivityModule } from '../../common/http/request-activity.js';
import { MetricsModule } from '../../metrics/metrics.module.js';
import { DeliveryMetrics, PrometheusDeliveryMetrics } from './delivery-metrics.js';

/**
 * Delivery's surroundings in the service itself: the API's request activity, and the Prometheus
 * metrics of `/metrics` (which a delivery thread's attempts are added to as well).
 */
@Module({
  imports: [MetricsModule, RequestActivityModule],
  providers: [
    PrometheusDeliveryMetrics,
    { provide: DeliveryMetrics, useExisting: PrometheusDeliveryMetrics },
  ],
  exports: [RequestActivityModule, DeliveryMetrics, PrometheusDeliveryMetrics],
})
export class ServiceDeliveryHostModule {}
