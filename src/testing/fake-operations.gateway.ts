import { OperationsGateway, OperationsUnavailableError } from '../operations/operations.gateway.js';
import type {
  ChangedProcessesPage,
  ChangedProcessesQuery,
  OperationsProcess,
  OperationsProcessDetail,
} from '../operations/operations.types.js';

/**
 * An in-memory operations system. The change feed has the real one's semantics: items with
 * `updatedAt` strictly after `updatedSince`, oldest change first (ties by numero), keyset cursor.
 */
export class FakeOperationsGateway extends OperationsGateway {
  readonly queries: ChangedProcessesQuery[] = [];
  readonly details = new Map<string, OperationsProcessDetail>();
  detailCalls: string[] = [];
  /** Every call fails with OperationsUnavailableError while set. */
  failing = false;
  /** Throws OperationsUnavailableError on these 1-based list calls. */
  failOnCalls = new Set<number>();
  /** Called before a page is answered: lets a test change upstream between pages. */
  beforePage: ((call: number) => void) | null = null;
  private readonly processes = new Map<string, OperationsProcess>();
  private held: Promise<void> | null = null;
  private releaseHeld: (() => void) | null = null;

  /** Back to an empty system with no faults, for the next test of a suite that shares one app. */
  reset(): void {
    this.release();
    this.processes.clear();
    this.details.clear();
    this.queries.length = 0;
    this.detailCalls = [];
    this.failing = false;
    this.failOnCalls.clear();
    this.beforePage = null;
  }

  put(process: OperationsProcess, detail?: OperationsProcessDetail): this {
    this.processes.set(process.numero, structuredClone(process));
    if (detail !== undefined) this.details.set(detail.numero, structuredClone(detail));
    return this;
  }

  putAll(...processes: OperationsProcess[]): this {
    for (const process of processes) this.put(process);
    return this;
  }

  all(): OperationsProcess[] {
    return [...this.processes.values()];
  }

  /** Calls wait until {@link release}. */
  hold(): void {
    this.held ??= new Promise((resolve) => (this.releaseHeld = resolve));
  }

  release(): void {
    this.releaseHeld?.();
    this.held = null;
    this.releaseHeld = null;
  }

  async getProcessDetail(numero: string): Promise<OperationsProcessDetail | null> {
    this.detailCalls.push(numero);
    await this.held;
    if (this.failing) throw new OperationsUnavailableError('simulated outage');
    return structuredClone(this.details.get(numero) ?? null);
  }

  async listChangedProcesses(query: ChangedProcessesQuery): Promise<ChangedProcessesPage> {
    this.queries.push(query);
    const call = this.queries.length;
    await this.held;
    this.beforePage?.(call);
    if (this.failing || this.failOnCalls.has(call)) {
      throw new OperationsUnavailableError(`simulated outage on call ${call}`);
    }
    const since = query.updatedSince === null ? -Infinity : Date.parse(query.updatedSince);
    const after =
      query.cursor === null ? null : (JSON.parse(Buffer.from(query.cursor, 'base64url').toString()) as Key);
    const matching = this.all()
      .map((process) => ({ process, key: keyOf(process) }))
      .filter(({ key }) => key[0] > since && (after === null || compareKeys(key, after) > 0))
      .sort((a, b) => compareKeys(a.key, b.key));
    const page = matching.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map(({ process }) => structuredClone(process)),
      nextCursor:
        matching.length > query.limit && last !== undefined
          ? Buffer.from(JSON.stringify(last.key)).toString('base64url')
          : null,
    };
  }
}

type Key = [number, string];

const keyOf = (process: OperationsProcess): Key => [Date.parse(process.updatedAt), process.numero];

function compareKeys(a: Key, b: Key): number {
  return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
}
