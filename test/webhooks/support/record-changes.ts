import { ChangeRecorder } from '../../../src/changes/change-recorder.js';
import type { ChangeDraft } from '../../../src/changes/process-changes.js';
import type { ChangeKind } from '../../../src/domain/change-kinds.js';
import type { TestApp } from '../../support/test-app.js';

/** A change of `numero` for `customerId`, as sync would record it. */
export function aChange(
  customerId: string,
  numero: string,
  kind: ChangeKind = 'PROCESS_UPDATED',
): ChangeDraft {
  return {
    customerId,
    numero,
    kind,
    status: 'IN_TRANSIT',
    updatedAt: '2026-03-14T11:00:00Z',
    details: kind === 'STATUS_CHANGED' ? { previousStatus: 'BOOKED' } : null,
  };
}

/** Appends changes to the feed in one transaction, as a sync page does (notifying at commit). */
export async function recordChanges(testApp: TestApp, ...drafts: ChangeDraft[]): Promise<void> {
  const recorder = testApp.app.get(ChangeRecorder);
  await testApp.database.db.transaction((tx) => recorder.appendDrafts(tx, drafts));
}
