import { OperationsSimulator } from '../operations/simulator/operations-simulator.js';
import { OPS_SIM_USAGE, parseOpsSimArgs, type OpsSimCommand } from '../operations/simulator/ops-sim.args.js';
import { startOperationsSimulatorServer } from '../operations/simulator/ops-sim.server.js';

/** `npm run ops:sim -- [options]`: see OPS_SIM_USAGE. */
async function main(): Promise<void> {
  let command: OpsSimCommand;
  try {
    command = parseOpsSimArgs(process.argv.slice(2), process.env, new Date());
  } catch (error) {
    console.error(`ops-sim: ${error instanceof Error ? error.message : String(error)}\n\n${OPS_SIM_USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (command.kind === 'help') {
    process.stdout.write(`${OPS_SIM_USAGE}\n`);
    return;
  }
  const simulator = new OperationsSimulator(command.simulation);
  const server = await startOperationsSimulatorServer({ ...command.server, simulator });
  process.stdout.write(
    `ops-sim listening on ${server.url} (${simulator.processCount} processes, seed ${simulator.config.seed}, epoch ${command.simulation.epoch.toISOString()})\n`,
  );
  const stop = (): void => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('ops-sim failed to start:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
