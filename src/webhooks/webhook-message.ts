import type { ChangeKind } from '../domain/change-kinds.js';

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
