import { SyncService } from '../../src/sync/sync.service.js';
import type { TestApp } from './test-app.js';

/** Pulls everything the (fake) operations system holds into the test app's database. */
export async function syncNow(testApp: TestApp): Promise<void> {
  const outcome = await testApp.app.get(SyncService).run();
  if (outcome.status !== 'succeeded' || outcome.rejected > 0) {
    throw new Error(`test sync did not succeed: ${JSON.stringify(outcome)}`);
  }
}
