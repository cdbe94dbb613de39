import type { ClientApplication, PortalApi, Scope } from './api';
import { byId, formatInstant, h } from './dom';

/** Every scope, as the form offers it; a scope the API adds fails the type check here. */
const SCOPE_LABELS: Record<Scope, string> = {
  'processes:read': 'read processes (list and detail)',
  'changes:read': 'read the change feed and its stream',
  'webhooks:manage': 'manage webhooks',
};
const SCOPES = Object.keys(SCOPE_LABELS) as Scope[];

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

  constructor(
    private readonly api: PortalApi,
    private readonly hooks: SystemsViewHooks,
  ) {
    byId('system-scopes').append(
      ...SCOPES.map((scope) =>
        h(
          'label',
          { class: 'option' },
          h('input', { type: 'checkbox', name: 'scopes', value: scope }),
          ` ${scope}: ${SCOPE_LABELS[scope]}`,
        ),
      ),
    );
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
    const clients = await this.api.clients();
    byId('system-list-meta').textContent =
      clients.length === 0 ? 'No systems yet.' : `${clients.length} system${clients.length === 1 ? '' : 's'}`;
    byId('system-list').replaceChildren(...clients.map((client) => this.renderClient(client)));
  }

  private async create(): Promise<void> {
    const data = new FormData(this.createForm);
    const name = data.get('name');
    const scopes = SCOPES.filter((scope) => data.getAll('scopes').includes(scope));
    const created = await this.api.createClient(typeof name === 'string' ? name.trim() : '', scopes);
    this.createForm.reset();
    this.showSecret(created.name, created.clientId, created.clientSecret);
    this.hooks.announce('System registered. Its client secret is shown once: copy it now.');
    await this.reload();
  }

  private showSecret(name: string, clientId: string, secret: string): void {
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
      this.hooks.announce('Secret copied to the clipboard.');
    } catch {
      this.secretValue.focus();
      this.secretValue.select();
      this.hooks.announce('The page may not use the clipboard here: the secret is selected, copy it.');
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
      h('p', { class: 'meta' }, 'Client id ', h('code', {}, client.clientId)),
      h('p', { class: 'meta' }, `Scopes: ${client.scopes.join(', ')}`),
      h(
        'p',
        { class: 'meta' },
        `Registered ${formatInstant(client.createdAt)} · last used ` +
          (client.lastUsedAt === null ? 'never' : formatInstant(client.lastUsedAt)),
      ),
      h(
        'div',
        { class: 'actions' },
        action('New secret', () => this.rotate(client)),
        action('Delete', () => this.delete(client)),
      ),
    );
  }

  private async rotate(client: ClientApplication): Promise<void> {
    const secret = await this.api.rotateClientSecret(client.id);
    this.showSecret(client.name, client.clientId, secret);
    this.hooks.announce(`${client.name}: new secret shown once; the old one works for 24 hours more.`);
  }

  private async delete(client: ClientApplication): Promise<void> {
    if (
      !window.confirm(`Delete ${client.name}? Its secret stops working at once, its tokens within a minute.`)
    ) {
      return;
    }
    await this.api.deleteClient(client.id);
    this.hooks.announce(`${client.name}: deleted.`);
    await this.reload();
  }
}
