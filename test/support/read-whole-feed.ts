import type { ChangeDto } from '../../src/changes/dto/change.response.dto.js';
import type { TestApp } from './test-app.js';

/**
 * Every change `token`'s user may see after `after` (from the feed's start when null), read as a
 * client does: pages of `limit`, following `next` until `hasMore` is false. `next` is the last page's.
 */
export async function readWholeFeed<Change = ChangeDto>(
  testApp: TestApp,
  token: string,
  { after = null, limit = 500 }: { after?: string | null; limit?: number } = {},
): Promise<{ changes: Change[]; next: string }> {
  const changes: Change[] = [];
  let cursor = after;
  for (;;) {
    const response = await testApp.http
      .get(`/api/changes?limit=${limit}${cursor === null ? '' : `&after=${cursor}`}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const page = response.body as { data: Change[]; next: string; hasMore: boolean };
    changes.push(...page.data);
    cursor = page.next;
    if (!page.hasMore) return { changes, next: cursor };
  }
}
