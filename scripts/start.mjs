// `npm start`: the service, and in demo mode the sandbox beside it. The sandbox is the simulated
// operations system, a service of its own (sandbox/); the service reaches it over HTTP exactly as
// it reaches a real operations system in production, and hears its change notifications.
//
// Demo mode (no DATABASE_URL, NODE_ENV not production) with no OPERATIONS_BASE_URL: the sandbox
// starts on 127.0.0.1:SANDBOX_PORT (3100) as a child process with an IPC channel, so it ends with
// this process however this one ends; then the service runs here, in this process, with the
// node flags `npm start` gave it.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';

if (existsSync('.env')) process.loadEnvFile('.env');

const env = process.env;
const demoMode = env.DATABASE_URL === undefined && env.NODE_ENV !== 'production';

if (demoMode && (env.OPERATIONS_BASE_URL ?? '') === '') {
  const port = env.SANDBOX_PORT ?? '3100';
  env.OPERATIONS_API_KEY ||= 'demo-operations-key';
  env.OPERATIONS_NOTIFY_SECRET ||= `whsec_${randomBytes(24).toString('base64')}`;
  const sandboxUrl = await startSandbox({
    SANDBOX_PORT: port,
    OPERATIONS_API_KEY: env.OPERATIONS_API_KEY,
    OPERATIONS_NOTIFY_SECRET: env.OPERATIONS_NOTIFY_SECRET,
    SANDBOX_NOTIFY_URL: `http://127.0.0.1:${env.PORT || '3000'}/api/operations/notifications`,
  });
  env.OPERATIONS_BASE_URL = sandboxUrl;
}

await import('../dist/main.js');

/** Forks the sandbox and resolves with its URL once it listens; exits if it cannot start. */
function startSandbox(sandboxEnv) {
  const traced = (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '') !== '';
  const child = fork('sandbox/dist/main.js', [], {
    // Its spans are the sandbox's, whatever the service calls itself.
    env: { ...env, ...sandboxEnv, ...(traced && { OTEL_SERVICE_NAME: 'sandbox' }) },
    // Only the sandbox's own flags: not the service's heap settings or its tracing module.
    execArgv: traced ? ['--import', './sandbox/dist/tracing/register.js'] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve) => {
    const failedToStart = (code) => {
      console.error(`The sandbox could not start (exit code ${code}); see its message above.`);
      process.exit(1);
    };
    child.once('exit', failedToStart);
    child.once('message', (message) => {
      child.off('exit', failedToStart);
      // The service goes on without it (its operations system is then down, as readiness says).
      child.once('exit', (code, signal) => {
        console.error(`The sandbox stopped (${signal ?? `exit code ${code}`}).`);
      });
      // Neither the child nor its channel keeps this process alive: when the service ends, this
      // process exits, the channel closes, and the sandbox ends too.
      child.channel?.unref();
      child.unref();
      resolve(message.listening);
    });
  });
}
