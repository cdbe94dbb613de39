import type { ClientApplication, PortalApi, Scope } from './api';
import { byId, h } from './dom';
import { formatInstant } from './i18n/format';
import { onLanguageChange } from './i18n/language';
import { en } from './i18n/en';
import { t } from './i18n/messages';

/** Every scope, as the form offers it: those the catalogue names, which a new scope of the API fails to type-check. */
const SCOPES = Object.keys(en.scopeNames) as Scope[];

export interface SystemsViewHooks {
  /** A failed call: the page shows the API's words (and signs out on 401). */
  onFailure: (error: unknown) => void;
  onSuccess: () => void;
  announce: (text: string) => void;
}

/**
 * The Systems view: the signed-in user's client applications (the systems that sign in with OAuth
 * 2.0 client credentials), registered with scopes, their secret shown once, rotated and deleted.
 */
export class SystemsView {
  private readonly section = byId('systems');
  private readonly createForm = byId<HTMLFormElement>('new-system');
  private readonly secretPanel = byId('system-secret');
  private readonly secretValue = byId<HTMLInputElement>('system-secret-value');
  /** The systems listed last, drawn again when the language changes. */
  private clients: ClientApplication[] = [];

  constructor(
    private readonly api: PortalApi,
    private readonly hooks: SystemsViewHooks,
  ) {
    const scopeNames = SCOPES.map((scope) => ({ scope, name: h('span', {}) }));
    byId('system-scopes').append(
      ...scopeNames.map(({ scope, name }) =>
        h(
          'label',
          { class: 'option' },
          h('input', { type: 'checkbox', name: 'scopes', value: scope }),
          ' ',
          name,
        ),
      ),
    );
    // Worded in each language; what is ticked stays ticked.
    const wordScopes = () => {
      for (const { scope, name } of scopeNames) name.textContent = `${scope}: ${t().scopeNames[scope]}`;
    };
    wordScopes();
    onLanguageChange(() => {
      wordScopes();
      if (!this.section.hidden) this.render();
    });
    this.createForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run(() => this.create());
    });
    byId('copy-system-secret').addEventListener('click', () => void this.copySecret());
    byId('dismiss-system-secret').addEventListener('click', () => this.forgetSecret());
  }

  async show(): Promise<void> {
    this.section.hidden = false;
    await this.run(() => this.reload());
  }

  /** Hidden, and nothing of the signed-in user left on the page (the secret least of all). */
  hide(): void {
    this.section.hidden = true;
    this.forgetSecret();
    this.clients = [];
    byId('system-list').replaceChildren();
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
    this.clients = await this.api.clients();
    this.render();
  }

  private render(): void {
    const { clients } = this;
    byId('system-list-meta').textContent =
      clients.length === 0 ? t().noSystems : t().systemsCount(clients.length);
    byId('system-list').replaceChildren(...clients.map((client) => this.renderClient(client)));
  }

  private async create(): Promise<void> {
    const data = new FormData(this.createForm);
    const name = data.get('name');
    const scopes = SCOPES.filter((scope) => data.getAll('scopes').includes(scope));
    const created = await this.api.createClient(typeof name === 'string' ? name.trim() : '', scopes);
    this.createForm.reset();
    this.showSecret(created.name, created.clientId, created.clientSecret);
    this.hooks.announce(t().systemRegistered);
    await this.reload();
  }

  /** Shown as soon as the API answers: a refusal shown for an earlier try is over, not after the reload. */
  private showSecret(name: string, clientId: string, secret: string): void {
    this.hooks.onSuccess();
    byId('system-secret-name').textContent = name;
    byId<HTMLInputElement>('system-client-id').value = clientId;
    this.secretValue.value = secret;
    this.secretPanel.hidden = false;
    this.secretPanel.focus();
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
    byId<HTMLInputElement>('system-client-id').value = '';
    byId('system-secret-name').textContent = '';
    this.secretPanel.hidden = true;
  }

  private renderClient(client: ClientApplication): HTMLElement {
    const headingId = `system-${client.id}`;
    const action = (label: string, onclick: () => Promise<void>) =>
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          'aria-describedby': headingId,
          onclick: () => void this.run(onclick),
        },
        label,
      );
    return h(
      'li',
      { class: 'webhook', 'data-id': client.id },
      h('div', { class: 'webhook-head' }, h('h4', { id: headingId }, client.name)),
      h('p', { class: 'meta' }, `${t().clientId} `, h('code', {}, client.clientId)),
      h('p', { class: 'meta' }, t().scopesList(client.scopes.join(', '))),
      h(
        'p',
        { class: 'meta' },
        t().registeredAndLastUsed(
          formatInstant(client.createdAt),
          client.lastUsedAt === null ? null : formatInstant(client.lastUsedAt),
        ),
      ),
      h(
        'div',
        { class: 'actions' },
        action(t().newSecret, () => this.rotate(client)),
        action(t().delete, () => this.delete(client)),
      ),
    );
  }

  private async rotate(client: ClientApplication): Promise<void> {
    const secret = await this.api.rotateClientSecret(client.id);
    this.showSecret(client.name, client.clientId, secret);
    this.hooks.announce(t().systemSecretRotated(client.name));
  }

  private async delete(client: ClientApplication): Promise<void> {
    if (!window.confirm(t().confirmSystemDeletion(client.name))) return;
    await this.api.deleteClient(client.id);
    this.hooks.announce(t().deleted(client.name));
    await this.reload();
  }
}
