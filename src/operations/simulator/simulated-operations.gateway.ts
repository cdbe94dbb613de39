import { Clock, SystemClock } from '../../common/clock.js';
import { OperationsGateway, OperationsUnavailableError } from '../operations.gateway.js';
import type {
  ChangedProcessesPage,
  ChangedProcessesQuery,
  OperationsProcessDetail,
} from '../operations.types.js';
import { InvalidQueryError, OperationsSimulator } from './operations-simulator.js';
import type { SimulationOptions } from './simulation-options.js';

/**
 * The operations system simulated in-process: the demo's upstream, and a test double whose data
 * moves when the test moves its clock.
 */
export class SimulatedOperationsGateway extends OperationsGateway {
  readonly simulator: OperationsSimulator;

  constructor(
    simulator: OperationsSimulator | SimulationOptions,
    private readonly clock: Clock = new SystemClock(),
  ) {
    super();
    this.simulator =
      simulator instanceof OperationsSimulator ? simulator : new OperationsSimulator(simulator);
  }

  getProcessDetail(numero: string): Promise<OperationsProcessDetail | null> {
    return new Promise((resolve) => resolve(this.simulator.getProcessDetail(numero, this.clock.now())));
  }

  listChangedProcesses(query: ChangedProcessesQuery): Promise<ChangedProcessesPage> {
    // A throw inside the executor becomes the rejection.
    return new Promise((resolve) => resolve(this.list(query)));
  }

  private list(query: ChangedProcessesQuery): ChangedProcessesPage {
    try {
      return this.simulator.listChangedProcesses(query, this.clock.now());
    } catch (error) {
      if (error instanceof InvalidQueryError) {
        // The HTTP upstream answers 400 here, which its adapter reports the same way.
        throw new OperationsUnavailableError(`Operations simulator refused the query: ${error.message}`, {
          cause: error,
        });
      }
      throw error;
    }
  }
}
