import { Logger } from '@nestjs/common';
import pg from 'pg';
import { logConnectionLoss } from './connection-loss.js';

/** Called with each notification's payload, and with none after (re)connecting, when some may have been missed. */
export type NotificationHandler = (payload: string | undefined) => void;

export interface NotificationSubscription {
  close(): Promise<void>;
}

const RECONNECT_DELAYS_MS = [250, 1000, 5000, 15000];

/**
 * LISTEN on one dedicated PostgreSQL connection (a pooled one would drop the subscription when
 * released), reconnecting with backoff when the server drops it.
 */
export class PostgresNotificationListener implements NotificationSubscription {
  private readonly logger = new Logger(PostgresNotificationListener.name);
  private client: pg.Client | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly onNotify: NotificationHandler,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'process-lookup-listen' });
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.onNotify(message.payload);
    });
    client.on('error', (error) => {
      logConnectionLoss(this.logger, 'the notification connection', error);
      this.scheduleReconnect(client);
    });
    client.on('end', () => this.scheduleReconnect(client));
    this.client = client;
    await client.connect();
    await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
    this.failures = 0;
    this.onNotify(undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    await this.client?.end().catch(() => undefined);
  }

  private scheduleReconnect(lost: pg.Client): void {
    if (this.closed || this.client !== lost || this.reconnectTimer !== null) return;
    this.client = null;
    lost.end().catch(() => undefined);
    const delay = RECONNECT_DELAYS_MS[Math.min(this.failures, RECONNECT_DELAYS_MS.length - 1)];
    this.failures += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.start().catch((error: Error) => {
        logConnectionLoss(this.logger, 'the notification connection', error);
        const failed = this.client;
        if (failed !== null) this.scheduleReconnect(failed);
      });
    }, delay);
    this.reconnectTimer.unref();
  }
}
