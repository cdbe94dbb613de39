import { remoteConfig } from './remote-config.js';

/** A process as the operations system (the sandbox) holds it: the upstream shape. */
export interface UpstreamProcess {
  numero: string;
  status: string;
  updatedAt: string;
  type: 'IMPORT' | 'EXPORT';
  mode: 'SEA' | 'AIR' | 'ROAD';
  customer: { id: string; name: string };
  eta: string | null;
  customsChannel: string | null;
  events: Array<{ id: string; code: string; occurredAt: string; description?: string }>;
}

export interface ControlAnswer<Body> {
  status: number;
  contentType: string;
  body: Body;
}

interface Changed {
  numero: string;
  process: UpstreamProcess;
}

/**
 * The sandbox's control API (`E2E_SANDBOX_URL`, key `E2E_SANDBOX_KEY`): what the scenarios do to
 * the operations system before they look for the change in the service. Each call answers what it
 * changed; `send` reaches the refusals too.
 */
export class SandboxClient {
  constructor(
    private readonly url: string,
    private readonly apiKey: string | null,
  ) {}

  static fromConfig(): SandboxClient {
    if (remoteConfig.sandbox === null) throw new Error('E2E_SANDBOX_URL and E2E_SANDBOX_KEY are not set');
    return new SandboxClient(remoteConfig.sandbox.url, remoteConfig.sandbox.apiKey);
  }

  /** The same sandbox, asked without the key. */
  withoutKey(): SandboxClient {
    return new SandboxClient(this.url, null);
  }

  createProcess(process: { customer: string; type: 'IMPORT' | 'EXPORT'; mode: 'SEA' | 'AIR' | 'ROAD' }) {
    return this.expect<Changed>(201, 'POST', '/control/processes', process);
  }

  advance(numero: string) {
    return this.expect<Changed>(200, 'POST', `/control/processes/${numero}/advance`);
  }

  addEvent(numero: string, event: { code: string; description?: string; occurredAt?: string }) {
    return this.expect<Changed & { event: { id: string; code: string } }>(
      201,
      'POST',
      `/control/processes/${numero}/events`,
      event,
    );
  }

  retractEvent(numero: string, eventId: string) {
    return this.expect<Changed>(200, 'DELETE', `/control/processes/${numero}/events/${eventId}`);
  }

  setCustomsChannel(numero: string, channel: 'GREEN' | 'YELLOW' | 'RED' | 'GRAY') {
    return this.expect<Changed>(200, 'POST', `/control/processes/${numero}/customs`, { channel });
  }

  moveEta(numero: string, eta: string) {
    return this.expect<Changed>(200, 'POST', `/control/processes/${numero}/eta`, { eta });
  }

  cancel(numero: string) {
    return this.expect<Changed>(200, 'POST', `/control/processes/${numero}/cancel`);
  }

  async send<Body = unknown>(method: string, path: string, body?: unknown): Promise<ControlAnswer<Body>> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        ...(this.apiKey !== null && { 'X-Api-Key': this.apiKey }),
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      contentType,
      body: (/json/.test(contentType) ? JSON.parse(text) : text) as Body,
    };
  }

  private async expect<Body>(status: number, method: string, path: string, body?: unknown): Promise<Body> {
    const answer = await this.send<Body>(method, path, body);
    if (answer.status !== status) {
      throw new Error(
        `${method} ${path} answered ${answer.status}, not ${status}: ${JSON.stringify(answer.body)}`,
      );
    }
    return answer.body;
  }
}
