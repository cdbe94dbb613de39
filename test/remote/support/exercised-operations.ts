import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Which operations of the served OpenAPI document the suite's answers came from, and with which
 * statuses. Each test file has a module registry of its own, so the record is a file every answer
 * appends to; the suite runs in band, so one Jest process (one pid) is one run, and the coverage
 * spec, run last, reads its own run's record.
 */
const OUTPUT = new URL('../../../test-output/', import.meta.url);
const RECORDS = new URL('remote-exercised/', OUTPUT);
const record = () => new URL(`${process.pid}.jsonl`, RECORDS);

export const COVERAGE_REPORT = fileURLToPath(new URL('remote-coverage.json', OUTPUT));

export interface ExercisedOperation {
  operationId: string;
  status: number;
}

export function recordExercised(operation: ExercisedOperation): void {
  mkdirSync(RECORDS, { recursive: true });
  appendFileSync(record(), `${JSON.stringify(operation)}\n`);
}

/** Every status each operation answered in this run, by operationId. */
export function exercisedOperations(): Map<string, Set<number>> {
  const byOperation = new Map<string, Set<number>>();
  if (!existsSync(record())) return byOperation;
  for (const line of readFileSync(record(), 'utf8').split('\n')) {
    if (line === '') continue;
    const { operationId, status } = JSON.parse(line) as ExercisedOperation;
    byOperation.set(operationId, (byOperation.get(operationId) ?? new Set()).add(status));
  }
  return byOperation;
}

/** Once summed up: the records of this run and of runs that ended before theirs was read. */
export function forgetExercisedOperations(): void {
  rmSync(RECORDS, { recursive: true, force: true });
}
