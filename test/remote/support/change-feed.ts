import type { Change, ChangesPage } from './api-types.js';
import type { RemoteApi } from './remote-api.js';

/**
 * Every change the token's user may see after `after` (from the oldest retained one when null),
 * read as a client does: pages of 500, following `next` until `hasMore` is false.
 */
export async function readFeed(
  api: RemoteApi,
  token: string,
  after: string | null = null,
): Promise<{ changes: Change[]; next: string }> {
  const changes: Change[] = [];
  let cursor = after;
  for (;;) {
    const page = await api.get<ChangesPage>(
      `/api/changes?limit=500${cursor === null ? '' : `&after=${cursor}`}`,
      {
        token,
      },
    );
    if (page.status !== 200)
      throw new Error(`the feed answered ${page.status}: ${JSON.stringify(page.body)}`);
    changes.push(...page.body.data);
    cursor = page.body.next;
    if (!page.body.hasMore) return { changes, next: cursor };
  }
}
