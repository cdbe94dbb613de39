import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

/** Where the browser suites write screenshots for a reviewer to look at; not committed. */
export const PORTAL_SCREENSHOTS = 'test-output/portal';

/**
 * Readies a browser suite: the portal built as `npm start` builds it, only when missing or older
 * than its sources (CI has built it, and suites running side by side must not rebuild the folder
 * another one serves), and the screenshots' folder.
 */
export function preparePortalSuite(): void {
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'pipe' });
  mkdirSync(PORTAL_SCREENSHOTS, { recursive: true });
}
