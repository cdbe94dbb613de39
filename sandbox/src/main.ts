import { Sandbox } from './control/sandbox.js';
import { SandboxClock } from './control/sandbox-clock.js';
import { runExitHooks } from './exit-hooks.js';
import { ChangeNotifier } from './notify/change-notifier.js';
import { ClockWatcher } from './notify/clock-watcher.js';
import { parseSandboxArgs, SANDBOX_USAGE } from './server/sandbox.args.js';
import { startSandboxServer } from './server/sandbox.server.js';

/** `node sandbox/dist/main.js [options]`: the simulated operations system as a service. */
async function main(): Promise<void> {
  let command;
  try {
    command = parseSandboxArgs(process.argv.slice(2), process.env, new Date());
  } catch (error) {
    console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}\n\n${SANDBOX_USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (command.kind === 'help') {
    process.stdout.write(`${SANDBOX_USAGE}\n`);
    return;
  }
  const clock = new SandboxClock();
  const sandbox = new Sandbox(command.simulation, clock);
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const { notify } = command.server;
  const notifier = notify === null ? null : new ChangeNotifier({ ...notify, clock, log });
  const watcher =
    notifier === null ? null : new ClockWatcher(sandbox, clock, (numeros) => notifier.notify(numeros));
  if (notifier !== null) sandbox.onChange((numeros) => notifier.notify(numeros));
  const server = await startSandboxServer({
    ...command.server,
    sandbox,
    clock,
    onClockMoved: () => watcher?.check(),
  });
  watcher?.start();
  process.stdout.write(
    `sandbox listening on ${server.url} (${sandbox.processCount} processes, seed ${sandbox.seed}, epoch ${command.simulation.epoch.toISOString()}${notify === null ? '' : `, notifying ${notify.url}`})\n`,
  );
  const stop = (): void => {
    watcher?.stop();
    Promise.all([server.close(), notifier?.close()])
      .finally(runExitHooks)
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Started by `npm start` with an IPC channel: tell it where we listen, and when that parent
  // goes, however it goes, go too.
  if (process.send !== undefined) {
    process.send({ listening: server.url });
    process.once('disconnect', stop);
  }
}

main().catch((error: unknown) => {
  console.error('sandbox failed to start:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
