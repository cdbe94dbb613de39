import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PasswordHasher } from '../auth/password-hasher.service.js';
import { UsersRepository } from '../auth/users/users.repository.js';
import { AppConfig } from '../config/app.config.js';
import { SyncService } from '../sync/sync.service.js';
import { DEMO_USERS } from './demo-users.js';
import { InitialDataState } from './initial-data.state.js';

const RETRY_DELAY_MS = 2_000;

/**
 * Demo mode: at start-up, syncs the sandbox's data into the database, then
 * creates the demo users that do not exist yet, then declares the initial data ready. It runs in
 * the background: the HTTP server listens meanwhile and readiness answers 503 until it is done.
 */
@Injectable()
export class DemoSeeder implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DemoSeeder.name);
  private seeding: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly config: AppConfig,
    private readonly sync: SyncService,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly state: InitialDataState,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.demoMode || this.config.nodeEnv === 'production') return;
    this.seeding = this.seed();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.seeding;
  }

  /** Resolves once the demo data is ready, or when shutdown interrupts it; never rejects. */
  whenSeeded(): Promise<void> {
    return this.seeding ?? Promise.resolve();
  }

  private async seed(): Promise<void> {
    const started = Date.now();
    while (!this.stopped) {
      try {
        // Joins the scheduler's first pass if that one has started already.
        const outcome = await this.sync.run();
        if (outcome.status === 'succeeded') {
          const created = await this.createMissingUsers();
          this.state.markReady();
          this.logger.log({
            msg: 'demo data ready',
            durationMs: Date.now() - started,
            processed: outcome.processed,
            usersCreated: created,
          });
          return;
        }
        this.logger.warn({ msg: 'demo: first sync did not complete; retrying', status: outcome.status });
      } catch (error) {
        this.logger.error({ msg: 'demo: seeding failed; retrying', error: String(error) });
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  }

  /** Users that exist are left alone (their passwords may have been changed on purpose). */
  private async createMissingUsers(): Promise<string[]> {
    const created: string[] = [];
    for (const user of DEMO_USERS) {
      if ((await this.users.findByUsername(user.username)) !== null) continue;
      await this.users.create({
        username: user.username,
        passwordHash: await this.hasher.hash(user.password),
        role: user.role,
        customerIds: user.customerIds,
      });
      created.push(user.username);
    }
    return created;
  }
}
