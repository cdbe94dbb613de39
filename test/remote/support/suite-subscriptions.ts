import type { CreatedWebhook, Webhook } from './api-types.js';
import type { RemoteApi } from './remote-api.js';

/** Marks the subscriptions the suite makes, so that a run cleans up after one that crashed. */
const SUITE_MARK = 'remote suite';

/**
 * The webhook subscriptions one test file makes, all deleted at its end (a user may hold ten), with
 * any an earlier, interrupted run left behind.
 */
export class SuiteSubscriptions {
  private readonly made: string[] = [];

  constructor(
    private readonly api: RemoteApi,
    private readonly token: string,
  ) {}

  async create(body: { url: string; after?: string; kinds?: string[] }): Promise<CreatedWebhook> {
    const answer = await this.api.post<CreatedWebhook>('/api/webhooks', {
      token: this.token,
      body: {
        ...body,
        description: `${SUITE_MARK}: ${expect.getState().currentTestName ?? ''}`.slice(0, 200),
      },
    });
    if (answer.status !== 201) {
      throw new Error(
        `creating a subscription to ${body.url} answered ${answer.status} (is the deployment allowed to deliver there? see E2E_WEBHOOK_RECEIVER_URL): ${JSON.stringify(answer.body)}`,
      );
    }
    this.made.push(answer.body.id);
    return answer.body;
  }

  /** Deletes this file's subscriptions and those an earlier run of the suite left. */
  async deleteAll(): Promise<void> {
    const listed = await this.api.get<{ data: Webhook[] }>('/api/webhooks', { token: this.token });
    const left = listed.body.data
      .filter((webhook) => webhook.description?.startsWith(SUITE_MARK))
      .map((w) => w.id);
    for (const id of new Set([...this.made.splice(0), ...left])) {
      await this.api.request('DELETE', `/api/webhooks/${id}`, { token: this.token });
    }
  }
}
