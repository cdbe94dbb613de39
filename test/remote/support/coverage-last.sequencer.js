import Sequencer from '@jest/test-sequencer';

const DefaultSequencer = Sequencer.default ?? Sequencer;

/**
 * Jest's order, but the OpenAPI coverage spec last: it reads what every other file of the remote
 * suite exercised (the suite runs in band, so last is after all of them).
 */
export default class CoverageLastSequencer extends DefaultSequencer {
  sort(tests) {
    const isCoverage = (test) => test.path.endsWith('openapi-coverage.remote-spec.ts');
    const sorted = super.sort(tests);
    const ordered = (list) => [...list.filter((test) => !isCoverage(test)), ...list.filter(isCoverage)];
    return sorted instanceof Promise ? sorted.then(ordered) : ordered(sorted);
  }
}
