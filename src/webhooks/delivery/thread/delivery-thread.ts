import { Worker } from 'node:worker_threads';
import type { LoggerService } from '@nestjs/common';
import type { PrometheusDeliveryMetrics } from '../delivery-metrics.js';
import { STOP, type DeliveryThreadData, type TallyMessage } from './delivery-thread-protocol.js';

/** The built thread's code, beside this file's (in `dist/`). */
const DELIVERY_THREAD_CODE = new URL('./delivery-thread.main.js', import.meta.url);
/**
 * The thread's heap. V8's flags are the process's, so without these it would take the service's
 * (`--initial-old-space-size=128`) and grow to it before collecting: 100 MB more RSS in a burst.
 */
const THREAD_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };

export interface DeliveryThreadOptions {
  /** After a thread ends on its own (a crash, a database out of reach at its start), another starts this much later. */
  restartAfterMs: number;
  /** At shutdown, a thread still running this long after being told to stop is terminated. */
  stopGraceMs: number;
  /** The thread's code: the delivery thread, or a stand-in in tests. */
  code?: URL;
}

/**
 * The delivery thread, as the service sees it: started, started again whenever it ends by itself,
 * stopped at shutdown. The attempts it reports are added to the service's metrics.
 */
export class DeliveryThread {
  private worker: Worker | null = null;
  private restart: NodeJS.Timeout | null = null;
  private stopping = false;

  constructor(
    private readonly data: DeliveryThreadData,
    private readonly metrics: Pick<PrometheusDeliveryMetrics, 'add'>,
    private readonly logger: LoggerService,
    private readonly options: DeliveryThreadOptions,
  ) {}

  /** Starts the thread, unless {@link stop} was called. */
  start(): void {
    this.restart = null;
    if (this.stopping) return;
    const worker = new Worker(this.options.code ?? DELIVERY_THREAD_CODE, {
      workerData: this.data,
      resourceLimits: THREAD_HEAP,
    });
    worker.on('message', (message: TallyMessage) => this.metrics.add(message.tally));
    worker.on('error', (error) => {
      this.logger.error({ msg: 'the webhook delivery thread failed', error: error.message });
    });
    worker.on('exit', (code) => {
      this.worker = null;
      if (this.stopping) return;
      this.logger.error({
        msg: 'the webhook delivery thread ended; another starts shortly',
        exitCode: code,
        restartInMs: this.options.restartAfterMs,
      });
      this.restart = setTimeout(() => this.start(), this.options.restartAfterMs);
    });
    this.worker = worker;
  }

  /** Resolves once the thread has ended: its attempts in flight cut short, its last metrics in. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restart !== null) clearTimeout(this.restart);
    const worker = this.worker;
    if (worker === null) return;
    // Not events.once: it would reject on the 'error' a crashing thread emits before it exits.
    const ended = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage(STOP);
    const deadline = setTimeout(() => void worker.terminate(), this.options.stopGraceMs);
    await ended;
    clearTimeout(deadline);
  }
}
