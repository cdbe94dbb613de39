import type { components } from '../../../generated/openapi.js';

/** The answers' shapes, as the OpenAPI document declares them (`npm run generate:client`). */
type Schemas = components['schemas'];

export type Change = Schemas['ChangeDto'];
export type ChangesPage = Schemas['ChangesPageResponseDto'];
export type ProcessSummary = Schemas['ProcessSummaryDto'];
export type ProcessList = Schemas['ProcessListResponseDto'];
export type ProcessDetail = Schemas['ProcessDetailResponseDto'];
export type Problem = Schemas['ProblemResponseDto'];
export type Webhook = Schemas['WebhookResponseDto'];
export type CreatedWebhook = Schemas['CreatedWebhookResponseDto'];
export type WebhookDelivery = Schemas['WebhookDeliveryResponseDto'];
export type WebhookDeliveriesPage = Schemas['WebhookDeliveriesPageResponseDto'];
export type WebhookPayload = Schemas['WebhookPayloadDto'];
export type ClientApplication = Schemas['ClientResponseDto'];
export type CreatedClientApplication = Schemas['CreatedClientResponseDto'];
export type TokenAnswer = Schemas['TokenResponseDto'];
