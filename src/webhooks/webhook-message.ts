import { CHANGE_KINDS, type ChangeKind } from '../domain/change-kinds.js';

/** The test message's kind in the deliveries log, beside the change kinds. */
export const TEST_MESSAGE_KIND = 'WEBHOOK_TEST';
/** What the deliveries log says an attempt carried: a change of a kind, or the test message. */
export const DELIVERY_KINDS = [...CHANGE_KINDS, TEST_MESSAGE_KIND] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];
/** The `type` of the test message `POST /api/webhooks/{id}/test` sends. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** What a delivery says happened: `process.` and the change's kind in lower case. */
export function eventTypeOf(kind: ChangeKind): string {
  return `process.${kind.toLowerCase()}`;
}

/**
 * The body of a delivery, Standard Webhooks' envelope around the change exactly as the feed
 * stores it (`changeJson`, not re-serialised): the same bytes on every retry and replay.
 */
export function deliveryBody(kind: ChangeKind, recordedAt: string, changeJson: string): string {
  return `{"type":${JSON.stringify(eventTypeOf(kind))},"timestamp":${JSON.stringify(recordedAt)},"data":${changeJson}}`;
}

/** The test message: Standard Webhooks' envelope with nothing in it, stamped `now`. */
export function testMessageBody(now: string): string {
  return `{"type":${JSON.stringify(TEST_EVENT_TYPE)},"timestamp":${JSON.stringify(now)},"data":{}}`;
}
