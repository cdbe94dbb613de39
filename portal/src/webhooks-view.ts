import type { ChangeKind, DeliveryOutcome, PortalApi, Webhook, WebhookDelivery, WebhookStart } from './api';
import { byId, formatInstant, h } from './dom';

/** Every kind of change, as the form offers it; a kind the API adds fails the type check here. */
const KIND_LABELS: Record<ChangeKind, string> = {
  PROCESS_ADDED: 'process added',
  STATUS_CHANGED: 'status changed',
  FOLLOW_ADDED: 'follow-up added',
  FOLLOW_REMOVED: 'follow-up removed',
  CUSTOMS_CHANGED: 'customs changed',
  ETA_CHANGED: 'ETA changed',
  PROCESS_UPDATED: 'process updated',
};
const KINDS = Object.keys(KIND_LABELS) as ChangeKind[];
/** What the deliveries log says an attempt carried: a change, or the test message. */
const DELIVERY_KIND_LABELS: Record<WebhookDelivery['kind'], string> = {
  ...KIND_LABELS,
  WEBHOOK_TEST: 'test message',
};
const OUTCOMES = { all: undefined, failed: 'failed', succeeded: 'succeeded' } as const satisfies Record<
  string,
  DeliveryOutcome | undefined
>;

export interface WebhooksViewHooks {
  /** A failed call: the page shows the API's words (and signs out on 401). */
  onFailure: (error: unknown) => void;
  onSuccess: () => void;
  announce: (text: string) => void;
}

/**
 * The Webhooks view: the signed-in user's subscriptions to the change feed, created, paused,
 * resumed, tested, replayed and deleted through the API, with each one's delivery attempts (all,
 * or those that failed or succeeded), any of which can be sent again.
 */
export class WebhooksView {
  private readonly section = byId('webhooks');
  private readonly createForm = byId<HTMLFormElement>('new-webhook');
  private readonly secretPanel = byId('webhook-secret');
  private readonly secretValue = byId<HTMLInputElement>('webhook-secret-value');
  private readonly deliveriesPanel = byId('webhook-deliveries');
  private readonly replayForm = byId<HTMLFormElement>('replay');
  private readonly outcomeFilter = byId<HTMLSelectElement>('deliveries-outcome');
  /** The webhook whose deliveries are open, and the `next` of the last page shown. */
  private open: { webhook: Webhook; next: string | null } | null = null;

  constructor(
    private readonly api: PortalApi,
    private readonly hooks: WebhooksViewHooks,
  ) {
    byId('webhook-kinds').append(
      ...KINDS.map((kind) =>
        h(
          'label',
          { class: 'option' },
          h('input', { type: 'checkbox', name: 'kinds', value: kind }),
          ` ${KIND_LABELS[kind]}`,
        ),
      ),
    );
    this.createForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run(() => this.create());
    });
    byId('copy-secret').addEventListener('click', () => void this.copySecret());
    byId('dismiss-secret').addEventListener('click', () => this.forgetSecret());
    byId('refresh-deliveries').addEventListener('click', () => void this.run(() => this.showDeliveries()));
    byId('older-deliveries').addEventListener('click', () => void this.run(() => this.showOlderDeliveries()));
    byId('close-deliveries').addEventListener('click', () => this.closeDeliveries());
    this.outcomeFilter.addEventListener('change', () => void this.run(() => this.showDeliveries()));
    this.replayForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run(() => this.replay());
    });
  }

  get visible(): boolean {
    return !this.section.hidden;
  }

  async show(): Promise<void> {
    this.section.hidden = false;
    await this.run(() => this.reload());
  }

  /** Hidden, and nothing of the signed-in user left on the page (the secret least of all). */
  hide(): void {
    this.section.hidden = true;
    this.forgetSecret();
    this.closeDeliveries();
    byId('webhook-list').replaceChildren();
  }

  private async run(action: () => Promise<void>): Promise<void> {
    try {
      await action();
      this.hooks.onSuccess();
    } catch (error) {
      this.hooks.onFailure(error);
    }
  }

  private async reload(): Promise<void> {
    const webhooks = await this.api.webhooks();
    byId('webhook-list-meta').textContent =
      webhooks.length === 0
        ? 'No webhooks yet.'
        : `${webhooks.length} webhook${webhooks.length === 1 ? '' : 's'}`;
    byId('webhook-list').replaceChildren(...webhooks.map((webhook) => this.renderWebhook(webhook)));
    const open = this.open;
    if (open !== null) {
      const current = webhooks.find((webhook) => webhook.id === open.webhook.id);
      if (current === undefined) this.closeDeliveries();
      else open.webhook = current;
    }
  }

  private async create(): Promise<void> {
    const data = new FormData(this.createForm);
    const description = field(data, 'description');
    const kinds = KINDS.filter((kind) => data.getAll('kinds').includes(kind));
    const created = await this.api.createWebhook({
      url: field(data, 'url'),
      ...(description !== '' && { description }),
      ...(kinds.length > 0 && { kinds }),
    });
    this.createForm.reset();
    byId('webhook-secret-url').textContent = created.url;
    this.secretValue.value = created.secret;
    this.secretPanel.hidden = false;
    this.secretPanel.focus();
    this.hooks.announce(`Webhook created. Its signing secret is shown once: copy it now.`);
    await this.reload();
  }

  /** The clipboard where the page may use it (HTTPS or localhost); else the secret, selected. */
  private async copySecret(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.secretValue.value);
      this.hooks.announce('Secret copied to the clipboard.');
    } catch {
      this.secretValue.focus();
      this.secretValue.select();
      this.hooks.announce('The page may not use the clipboard here: the secret is selected, copy it.');
    }
  }

  private forgetSecret(): void {
    this.secretValue.value = '';
    byId('webhook-secret-url').textContent = '';
    this.secretPanel.hidden = true;
  }

  private renderWebhook(webhook: Webhook): HTMLElement {
    const headingId = `webhook-${webhook.id}`;
    const action = (label: string, onclick: () => Promise<void>, secondary = true) =>
      h(
        'button',
        {
          type: 'button',
          class: secondary ? 'secondary' : undefined,
          'aria-describedby': headingId,
          onclick: () => void this.run(onclick),
        },
        label,
      );
    const paused = webhook.status !== 'ACTIVE';
    return h(
      'li',
      { class: 'webhook', 'data-id': webhook.id },
      h(
        'div',
        { class: 'webhook-head' },
        h('h4', { id: headingId }, webhook.url),
        h('span', { class: `status webhook-${webhook.status.toLowerCase()}` }, webhook.status),
      ),
      webhook.description === null ? null : h('p', {}, webhook.description),
      h(
        'p',
        { class: 'meta' },
        `Kinds: ${webhook.kinds === null ? 'every kind' : webhook.kinds.map((kind) => KIND_LABELS[kind]).join(', ')}` +
          ` · created ${formatInstant(webhook.createdAt)}`,
      ),
      webhook.disabledReason === null
        ? null
        : h('p', { class: 'meta' }, `Disabled: ${webhook.disabledReason}`),
      webhook.failedAttempts === 0
        ? null
        : h(
            'p',
            { class: 'meta' },
            `${webhook.failedAttempts} failed attempt${webhook.failedAttempts === 1 ? '' : 's'} of the next change` +
              (webhook.nextAttemptAt === null ? '' : `; tried again ${formatInstant(webhook.nextAttemptAt)}`),
          ),
      h(
        'div',
        { class: 'actions' },
        paused
          ? action('Resume', () => this.setStatus(webhook, 'ACTIVE'), false)
          : action('Pause', () => this.setStatus(webhook, 'PAUSED')),
        action('Send test', () => this.sendTest(webhook)),
        action('Deliveries', () => this.openDeliveries(webhook)),
        action('Delete', () => this.delete(webhook)),
      ),
    );
  }

  private async setStatus(webhook: Webhook, status: 'ACTIVE' | 'PAUSED'): Promise<void> {
    await this.api.updateWebhook(webhook.id, { status });
    this.hooks.announce(`${webhook.url}: ${status === 'ACTIVE' ? 'resumed' : 'paused'}.`);
    await this.reload();
    // The button was replaced by its opposite: keep the keyboard where it was.
    byId('webhook-list')
      .querySelector<HTMLButtonElement>(`li[data-id="${webhook.id}"] .actions button`)
      ?.focus();
  }

  private async sendTest(webhook: Webhook): Promise<void> {
    const { messageId } = await this.api.sendWebhookTest(webhook.id);
    this.hooks.announce(
      `${webhook.url}: test message ${messageId} sent; its attempt shows among the deliveries.`,
    );
  }

  private async resend(delivery: WebhookDelivery): Promise<void> {
    if (this.open === null) return;
    const { messageId } = await this.api.resendWebhookDelivery(this.open.webhook.id, delivery.id);
    this.hooks.announce(`${messageId} sent again; refresh to see its attempt.`);
  }

  private async delete(webhook: Webhook): Promise<void> {
    if (!window.confirm(`Delete the webhook to ${webhook.url}? Its deliveries log goes with it.`)) return;
    await this.api.deleteWebhook(webhook.id);
    this.hooks.announce(`${webhook.url}: deleted.`);
    await this.reload();
  }

  private async openDeliveries(webhook: Webhook): Promise<void> {
    this.open = { webhook, next: null };
    this.replayForm.reset();
    this.outcomeFilter.value = 'all';
    await this.showDeliveries();
    this.deliveriesPanel.hidden = false;
    this.deliveriesPanel.focus();
  }

  private async showDeliveries(): Promise<void> {
    if (this.open === null) return;
    const page = await this.api.webhookDeliveries(this.open.webhook.id, this.outcome);
    byId('deliveries-heading').textContent = `Deliveries to ${this.open.webhook.url}`;
    byId('deliveries-caption').textContent =
      page.data.length === 0 ? 'No attempt yet' : 'Attempts, newest first';
    byId('deliveries-rows').replaceChildren(...page.data.map((delivery) => this.renderDelivery(delivery)));
    this.showNext(page.next);
  }

  private async showOlderDeliveries(): Promise<void> {
    if (this.open === null || this.open.next === null) return;
    const page = await this.api.webhookDeliveries(this.open.webhook.id, this.outcome, this.open.next);
    byId('deliveries-rows').append(...page.data.map((delivery) => this.renderDelivery(delivery)));
    this.showNext(page.next);
  }

  private get outcome(): DeliveryOutcome | undefined {
    return OUTCOMES[this.outcomeFilter.value as keyof typeof OUTCOMES];
  }

  private renderDelivery(delivery: WebhookDelivery): HTMLElement {
    const answer =
      delivery.responseStatus === null
        ? (delivery.error ?? 'no answer')
        : `${delivery.responseStatus}${delivery.error === null ? '' : ` · ${delivery.error}`}`;
    const rowId = `delivery-${delivery.id}`;
    return h(
      'tr',
      { class: delivery.error === null ? 'delivered' : 'failed' },
      h('td', {}, formatInstant(delivery.attemptedAt)),
      h('td', {}, DELIVERY_KIND_LABELS[delivery.kind]),
      h('td', { id: rowId }, h('code', {}, delivery.messageId)),
      h('td', {}, String(delivery.attempt)),
      h('td', {}, answer),
      h('td', {}, `${delivery.durationMs} ms`),
      h('td', {}, formatInstant(delivery.nextAttemptAt)),
      h(
        'td',
        {},
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            'aria-describedby': rowId,
            onclick: () => void this.run(() => this.resend(delivery)),
          },
          'Resend',
        ),
      ),
    );
  }

  private showNext(next: string | null): void {
    if (this.open !== null) this.open.next = next;
    byId('older-deliveries').hidden = next === null;
  }

  private closeDeliveries(): void {
    this.open = null;
    this.deliveriesPanel.hidden = true;
    byId('deliveries-rows').replaceChildren();
  }

  private async replay(): Promise<void> {
    if (this.open === null) return;
    const data = new FormData(this.replayForm);
    const start: WebhookStart =
      data.get('replayFrom') === 'since'
        ? { since: utcInstant(field(data, 'since')) }
        : { after: field(data, 'after') };
    const webhook = await this.api.replayWebhook(this.open.webhook.id, start);
    this.hooks.announce(`${webhook.url}: delivery goes back to the point asked for.`);
    await this.reload();
  }
}

/** A text field's value, trimmed ('' when absent). */
function field(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** A `datetime-local` value (no offset), read as UTC as its label says; empty stays empty for the API to refuse. */
function utcInstant(value: string): string {
  if (value === '') return value;
  return `${value.length === 16 ? `${value}:00` : value}Z`;
}
