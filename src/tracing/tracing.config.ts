import { Transform } from 'class-transformer';
import { IsOptional, IsUrl } from 'class-validator';
import { emptyAsUnset } from '../config/environment-values.js';
import type { FeatureConfig } from '../config/feature-config.js';

/** Read by the tracing set-up before the service starts (`register.ts`), validated with the rest. */
export class TracingVariables {
  @IsOptional()
  @Transform(emptyAsUnset)
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
}

/** Tracing is on when an OTLP endpoint is set; `register.ts` then started the SDK. */
export interface TracingConfig {
  enabled: boolean;
}

export const tracingConfig = {
  variables: TracingVariables,
  section: (vars) => ({ enabled: vars.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined }),
} satisfies FeatureConfig<TracingVariables, TracingConfig>;
