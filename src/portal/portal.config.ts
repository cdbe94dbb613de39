import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { BOOLEANS, type BooleanText, emptyAsUnset, flag } from '../config/environment-values.js';
import type { FeatureConfig } from '../config/feature-config.js';

export class PortalVariables {
  @IsOptional()
  @Transform(emptyAsUnset)
  @IsIn(BOOLEANS, { message: 'must be true or false' })
  PORTAL_ENABLED?: BooleanText;
}

/** The reference portal at `/portal`: on in demo mode unless `PORTAL_ENABLED` says otherwise. */
export interface PortalConfig {
  enabled: boolean;
}

export const portalConfig = {
  variables: PortalVariables,
  section: (vars, { demoMode }) => ({ enabled: flag(vars.PORTAL_ENABLED, demoMode) }),
} satisfies FeatureConfig<PortalVariables, PortalConfig>;
