import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app.config.js';

/**
 * Whether the service has its initial data. Outside demo mode the data is whatever the database
 * holds, so it is ready at once; in demo mode only after the first sync and the demo
 * users, which `/health/ready` reports as 503 until then.
 */
@Injectable()
export class InitialDataState {
  private ready: boolean;
  private readonly readyPromise: Promise<void>;
  private resolveReady!: () => void;

  constructor(config: AppConfig) {
    this.ready = !config.demoMode;
    this.readyPromise = new Promise((resolve) => (this.resolveReady = resolve));
    if (this.ready) this.resolveReady();
  }

  get isReady(): boolean {
    return this.ready;
  }

  markReady(): void {
    this.ready = true;
    this.resolveReady();
  }

  whenReady(): Promise<void> {
    return this.readyPromise;
  }
}
