import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';

/**
 * Whether the service is shutting down. Set the moment a termination signal arrives (see
 * {@link enableGracefulShutdown}) or, at the latest, when Nest starts closing the application:
 * from then on readiness answers 503 so load balancers stop sending traffic, while requests in
 * flight finish.
 */
@Injectable()
export class ShutdownState implements OnModuleDestroy {
  private readonly logger = new Logger(ShutdownState.name);
  private reason: string | null = null;
  private refusalsAnswered: Promise<void> | null = null;

  get isShuttingDown(): boolean {
    return this.reason !== null;
  }

  /**
   * Past the grace period, requests are refused (503) rather than served, each refusal answered
   * once this settles (`null` while requests are still served).
   */
  get refusalsAnsweredWhen(): Promise<void> | null {
    return this.refusalsAnswered;
  }

  /** Refuses every request from now on, holding each refusal until `answerWhen` settles. */
  refuseRequests(answerWhen: Promise<void> = Promise.resolve()): void {
    this.begin('refusing requests');
    this.refusalsAnswered = answerWhen;
  }

  /** Idempotent: the first reason wins. */
  begin(reason: string): void {
    if (this.reason !== null) return;
    this.reason = reason;
    this.logger.log({ msg: 'shutting down', reason });
  }

  onModuleDestroy(): void {
    this.begin('application closing');
  }
}
