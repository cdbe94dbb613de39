import type { ChangeKind, DeliveryOutcome, PortalApi, Webhook, WebhookDelivery, WebhookStart } from './api';
import { byId, h } from './dom';
import { en } from './i18n/en';
import { formatInstant, formatMilliseconds, formatNumber } from './i18n/format';
import { onLanguageChange } from './i18n/language';
import { t } from './i18n/messages';

/**
 * Every kind of change, as the form offers it: those the catalogue names (which a kind the API
 * adds fails to type-check), but the test message, which only the deliveries log shows.
 */
const KINDS = (Object.keys(en.changeKinds) as Array<keyof typeof en.changeKinds>).filter(
  (kind): kind is ChangeKind => kind !== 'WEBHOOK_TEST',
);
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
  /** The webhooks and attempts listed last, drawn again when the language changes. */
  private webhooks: Webhook[] = [];
  private deliveries: WebhookDelivery[] = [];

  constructor(
    private readonly api: PortalApi,
    private readonly hooks: WebhooksViewHooks,
  ) {
    const kindNames = KINDS.map((kind) => ({ kind, name: h('span', {}) }));
    byId('webhook-kinds').append(
      ...kindNames.map(({ kind, name }) =>
        h(
          'label',
          { class: 'option' },
          h('input', { type: 'checkbox', name: 'kinds', value: kind }),
          ' ',
          name,
        ),
      ),
    );
    // Worded in each language; what is ticked stays ticked.
    const wordKinds = () => {
      for (const { kind, name } of kindNames) name.textContent = t().changeKinds[kind];
    };
    wordKinds();
    onLanguageChange(() => {
      wordKinds();
      if (this.visible) this.render();
    });
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
    this.webhooks = [];
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
    this.webhooks = webhooks;
    this.renderWebhooks();
    const open = this.open;
    if (open !== null) {
      const current = webhooks.find((webhook) => webhook.id === open.webhook.id);
      if (current === undefined) this.closeDeliveries();
      else open.webhook = current;
    }
  }

  /** Everything this view drew, in the language now chosen. */
  private render(): void {
    this.renderWebhooks();
    if (this.open !== null) this.renderDeliveries();
  }

  private renderWebhooks(): void {
    const { webhooks } = this;
    byId('webhook-list-meta').textContent =
      webhooks.length === 0 ? t().noWebhooks : t().webhooksCount(webhooks.length);
    byId('webhook-list').replaceChildren(...webhooks.map((webhook) => this.renderWebhook(webhook)));
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
    // A refusal shown for an earlier try is over as soon as the API answers, not after the reload.
    this.hooks.onSuccess();
    this.createForm.reset();
    byId('webhook-secret-url').textContent = created.url;
    this.secretValue.value = created.secret;
    this.secretPanel.hidden = false;
    this.secretPanel.focus();
    this.hooks.announce(t().webhookCreated);
    await this.reload();
  }

  /** The clipboard where the page may use it (HTTPS or localhost); else the secret, selected. */
  private async copySecret(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.secretValue.value);
      this.hooks.announce(t().secretCopied);
    } catch {
      this.secretValue.focus();
      this.secretValue.select();
      this.hooks.announce(t().clipboardRefused);
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
        h(
          'span',
          { class: `status webhook-${webhook.status.toLowerCase()}` },
          t().webhookStatuses[webhook.status],
        ),
      ),
      webhook.description === null ? null : h('p', {}, webhook.description),
      h(
        'p',
        { class: 'meta' },
        t().kindsAndCreated(
          webhook.kinds === null ? null : webhook.kinds.map((kind) => t().changeKinds[kind]).join(', '),
          formatInstant(webhook.createdAt),
        ),
      ),
      webhook.disabledReason === null
        ? null
        : h('p', { class: 'meta' }, t().disabledBecause(webhook.disabledReason)),
      webhook.failedAttempts === 0
        ? null
        : h(
            'p',
            { class: 'meta' },
            t().failedAttempts(
              webhook.failedAttempts,
              webhook.nextAttemptAt === null ? null : formatInstant(webhook.nextAttemptAt),
            ),
          ),
      h(
        'div',
        { class: 'actions' },
        paused
          ? action(t().resume, () => this.setStatus(webhook, 'ACTIVE'), false)
          : action(t().pause, () => this.setStatus(webhook, 'PAUSED')),
        action(t().sendTest, () => this.sendTest(webhook)),
        action(t().deliveries, () => this.openDeliveries(webhook)),
        action(t().delete, () => this.delete(webhook)),
      ),
    );
  }

  private async setStatus(webhook: Webhook, status: 'ACTIVE' | 'PAUSED'): Promise<void> {
    await this.api.updateWebhook(webhook.id, { status });
    this.hooks.announce(
      status === 'ACTIVE' ? t().webhookResumed(webhook.url) : t().webhookPaused(webhook.url),
    );
    await this.reload();
    // The button was replaced by its opposite: keep the keyboard where it was.
    byId('webhook-list')
      .querySelector<HTMLButtonElement>(`li[data-id="${webhook.id}"] .actions button`)
      ?.focus();
  }

  private async sendTest(webhook: Webhook): Promise<void> {
    const { messageId } = await this.api.sendWebhookTest(webhook.id);
    this.hooks.announce(t().testSent(webhook.url, messageId));
  }

  private async resend(delivery: WebhookDelivery): Promise<void> {
    if (this.open === null) return;
    const { messageId } = await this.api.resendWebhookDelivery(this.open.webhook.id, delivery.id);
    this.hooks.announce(t().resent(messageId));
  }

  private async delete(webhook: Webhook): Promise<void> {
    if (!window.confirm(t().confirmWebhookDeletion(webhook.url))) return;
    await this.api.deleteWebhook(webhook.id);
    this.hooks.announce(t().deleted(webhook.url));
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
    this.deliveries = page.data;
    this.renderDeliveries();
    this.showNext(page.next);
  }

  private renderDeliveries(): void {
    if (this.open === null) return;
    byId('deliveries-heading').textContent = t().deliveriesTo(this.open.webhook.url);
    byId('deliveries-caption').textContent =
      this.deliveries.length === 0 ? t().noAttemptYet : t().attemptsNewestFirst;
    byId('deliveries-rows').replaceChildren(
      ...this.deliveries.map((delivery) => this.renderDelivery(delivery)),
    );
  }

  private async showOlderDeliveries(): Promise<void> {
    if (this.open === null || this.open.next === null) return;
    const page = await this.api.webhookDeliveries(this.open.webhook.id, this.outcome, this.open.next);
    this.deliveries.push(...page.data);
    byId('deliveries-rows').append(...page.data.map((delivery) => this.renderDelivery(delivery)));
    this.showNext(page.next);
  }

  private get outcome(): DeliveryOutcome | undefined {
    return OUTCOMES[this.outcomeFilter.value as keyof typeof OUTCOMES];
  }

  private renderDelivery(delivery: WebhookDelivery): HTMLElement {
    const answer =
      delivery.responseStatus === null
        ? (delivery.error ?? t().noAnswer)
        : `${delivery.responseStatus}${delivery.error === null ? '' : ` · ${delivery.error}`}`;
    const rowId = `delivery-${delivery.id}`;
    return h(
      'tr',
      { class: delivery.error === null ? 'delivered' : 'failed' },
      h('td', {}, formatInstant(delivery.attemptedAt)),
      h('td', {}, t().changeKinds[delivery.kind]),
      h('td', { id: rowId }, h('code', {}, delivery.messageId)),
      h('td', {}, formatNumber(delivery.attempt)),
      h('td', {}, answer),
      h('td', {}, formatMilliseconds(delivery.durationMs)),
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
          t().resend,
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
    this.deliveries = [];
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
    this.hooks.announce(t().replayed(webhook.url));
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
