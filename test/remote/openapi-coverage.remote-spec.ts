/**
 * Sums up the run (the remote suite's sequencer runs this file last): every operation of the
 * document the deployment serves was exercised by some test of the suite, each of whose answers
 * was checked against the document. Writes test-output/remote-coverage.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  COVERAGE_REPORT,
  exercisedOperations,
  forgetExercisedOperations,
} from './support/exercised-operations.js';
import { RemoteApi } from './support/remote-api.js';

/** Operations a black-box suite cannot reach on a deployment, each with the reason. */
const NOT_EXERCISABLE: Record<string, string> = {};

describe('the OpenAPI document the deployment serves', () => {
  it('has every operation exercised by the suite, each answer conforming to it', async () => {
    const api = await RemoteApi.connect();
    const operations = api.conformance.operationIds();
    const exercised = exercisedOperations();
    forgetExercisedOperations();

    const report = {
      document: `${api.baseUrl}/docs/openapi.json`,
      operations: operations.length,
      exercised: operations
        .filter((operationId) => exercised.has(operationId))
        .map((operationId) => ({
          operationId,
          statuses: [...exercised.get(operationId)!].sort((a, b) => a - b),
        })),
      notExercisable: operations
        .filter((operationId) => NOT_EXERCISABLE[operationId] !== undefined)
        .map((operationId) => ({ operationId, reason: NOT_EXERCISABLE[operationId] })),
      missed: operations.filter(
        (operationId) => !exercised.has(operationId) && NOT_EXERCISABLE[operationId] === undefined,
      ),
    };
    mkdirSync(dirname(COVERAGE_REPORT), { recursive: true });
    writeFileSync(COVERAGE_REPORT, `${JSON.stringify(report, null, 2)}\n`);

    expect(exercised.size).toBeGreaterThan(0);
    expect(report.missed).toEqual([]);
  });
});
