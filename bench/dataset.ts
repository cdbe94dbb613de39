import type { FollowUpEvent, OperationsProcess } from '../src/operations/operations.types.js';
import { Sandbox } from '../sandbox/src/control/sandbox.js';
import { SandboxClock } from '../sandbox/src/control/sandbox-clock.js';
import { OperationsSimulator } from '../sandbox/src/simulation/operations-simulator.js';
import { processAt } from '../sandbox/src/simulation/process-view.js';
import type { SimulationOptions } from '../sandbox/src/simulation/simulation-options.js';

/**
 * What a bench dataset is: the simulator's options, the instant it is looked at, and how many
 * NOTE events are added on top of the simulator's own. The loader stores it in the database
 * (`bench_dataset`) so that the harness starts an identical simulator for detail requests.
 */
export interface DatasetSpec {
  seed: number;
  processCount: number;
  customerCount: number;
  /** RFC 3339; a whole minute. */
  epoch: string;
  openWindowDays: number;
  /** The simulator's clock for both the load and the detail calls: every process is open by then. */
  now: string;
  /** Average NOTE events added per process (0: the simulator's events only, about 13.5 a process). */
  extraNotes: number;
}

const DAY_MS = 86_400_000;
export const BENCH_EPOCH = '2025-10-01T00:00:00Z';
export const BENCH_OPEN_WINDOW_DAYS = 156;
/** The customer the simulator gives about 20% of the processes at any size (`pickCustomer`). */
export const LARGE_CUSTOMER_ID = 'acme';

export function datasetSpec(
  processCount: number,
  options: { customerCount?: number; extraNotes?: number; seed?: number } = {},
): DatasetSpec {
  const epochMs = Date.parse(BENCH_EPOCH);
  return {
    seed: options.seed ?? 20260314,
    processCount,
    // A few hundred customers; never more than the simulator accepts for tiny sets.
    customerCount: options.customerCount ?? Math.min(300, processCount + 3),
    epoch: BENCH_EPOCH,
    openWindowDays: BENCH_OPEN_WINDOW_DAYS,
    now: new Date(epochMs + (BENCH_OPEN_WINDOW_DAYS + 1) * DAY_MS).toISOString(),
    extraNotes: options.extraNotes ?? 7,
  };
}

export function simulationOptionsOf(spec: DatasetSpec): SimulationOptions {
  return {
    seed: spec.seed,
    processCount: spec.processCount,
    customerCount: spec.customerCount,
    epoch: new Date(spec.epoch),
    openWindowDays: spec.openWindowDays,
  };
}

export function simulatorOf(spec: DatasetSpec): OperationsSimulator {
  return new OperationsSimulator(simulationOptionsOf(spec));
}

/** The sandbox serving the dataset, its clock standing at the dataset's instant. */
export function sandboxOf(spec: DatasetSpec): { sandbox: Sandbox; clock: SandboxClock } {
  const clock = SandboxClock.frozenAt(new Date(spec.now));
  return { sandbox: new Sandbox(simulationOptionsOf(spec), clock), clock };
}

/** The benchmark accounts the loader creates (bench databases only, never a real one). */
export const BENCH_USERS = {
  staff: { username: 'bench-staff', password: 'bench-staff-2026', role: 'staff', customerIds: [] },
  largeCustomer: {
    username: 'bench-acme',
    password: 'bench-acme-2026',
    role: 'customer',
    customerIds: [LARGE_CUSTOMER_ID],
  },
} as const;

export type BenchUserKey = keyof typeof BENCH_USERS;

const NOTE_TEXTS = [
  'Cliente consultou o andamento por e-mail',
  'Documentos conferidos pela equipe de operações',
  'Atualização de status enviada ao cliente',
  'Numerário complementar solicitado',
  'Conferência de dados cadastrais concluída',
  'Contato com o armador para confirmar janela',
  'Cópia dos documentos arquivada no dossiê',
  'Cliente informado sobre custos de armazenagem',
] as const;

/** 32-bit FNV-1a of a string: a stable per-process seed without touching the simulator's streams. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The process with `extraNotes` NOTE events on average added (0 to 2×average, decided by its
 * numero), spread strictly between its first event and its `updatedAt`, so `updatedAt`, status and
 * every summary field stay as the simulator made them. Ids cannot clash with the simulator's
 * (`evt_<numero>-NN`): these are `evt_<numero>-xNN`. The simulator's own output is never changed.
 */
export function densify(process: OperationsProcess, extraNotes: number): OperationsProcess {
  if (extraNotes <= 0 || process.events.length === 0) return process;
  const seed = hash(process.numero);
  const count = seed % (2 * extraNotes + 1);
  if (count === 0) return process;
  let first = Infinity;
  for (const event of process.events) first = Math.min(first, Date.parse(event.occurredAt));
  const last = Date.parse(process.updatedAt);
  const span = Math.max(0, last - first);
  const stem = process.numero.toLowerCase();
  const notes: FollowUpEvent[] = [];
  for (let i = 0; i < count; i++) {
    // Whole minutes strictly inside (first, last) when there is room; on `first` otherwise.
    const minutes = Math.floor(span / 60_000);
    const offset = minutes > 1 ? (((seed >>> 3) + i * 7919) % (minutes - 1)) + 1 : 0;
    notes.push({
      id: `evt_${stem}-x${String(i + 1).padStart(2, '0')}`,
      code: 'NOTE',
      description: NOTE_TEXTS[(seed + i) % NOTE_TEXTS.length] ?? NOTE_TEXTS[0],
      occurredAt: new Date(first + offset * 60_000).toISOString().replace('.000Z', 'Z'),
      location: null,
    });
  }
  return { ...process, events: [...process.events, ...notes] };
}

/** A process of the dataset, with the first ETA announced for it (what sync would have seen first). */
export type DatasetProcess = OperationsProcess & { originalEta: string | null };

/** Every process of the dataset as the loader writes it, in numero order. */
export function* datasetProcesses(spec: DatasetSpec): Generator<DatasetProcess> {
  const simulator = simulatorOf(spec);
  const { config } = simulator;
  const minute = simulator.minuteOf(new Date(spec.now));
  for (let index = 0; index < config.processCount; index++) {
    const plan = simulator.plan(index);
    const process = processAt(plan, config, minute);
    if (process === null) continue;
    const firstEta = plan.legs[plan.legs.length - 1]?.etaPlanned;
    const originalEta =
      process.eta === null || firstEta === undefined
        ? null
        : new Date(config.epochMs + firstEta * 60_000).toISOString().slice(0, 10);
    yield { ...densify(process, spec.extraNotes), originalEta };
  }
}
