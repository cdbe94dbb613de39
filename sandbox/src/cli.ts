/**
 * `npm run sandbox -- <verb> …`: the control API from a terminal. It talks to the sandbox at
 * SANDBOX_URL (default http://127.0.0.1:SANDBOX_PORT, 3100) with OPERATIONS_API_KEY (default
 * demo-operations-key, the demo's) and prints the answer as JSON.
 */
export const CLI_USAGE = `Usage: npm run sandbox -- <verb> [arguments]

  create <customer> <IMPORT|EXPORT> <SEA|AIR|ROAD>   a new process (prints its numero)
  advance <numero>                                  the next status of its path
  event <numero> <code> [description]               add a follow-up event (code: NOTE, GATE_IN, ...)
  retract <numero> <eventId>                        withdraw an event
  customs <numero> <GREEN|YELLOW|RED|GRAY>          set the customs channel
  eta <numero> <YYYY-MM-DD>                         move the ETA
  cancel <numero>                                   cancel the process
  clock                                             the sandbox's time
  clock freeze | clock resume | clock advance <ISO 8601 duration, e.g. PT6H>
  faults <timeout|error|redirect|oversized|garbage|reset|unavailable> [rate 0..1] [seconds]
  faults off                                        no more faults
  reset [seed]                                      the data of the seed again (control changes go)

Environment: SANDBOX_URL (http://127.0.0.1:3100), OPERATIONS_API_KEY (demo-operations-key).`;

export interface ControlCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
}

/** The control call a command line asks for; throws a RangeError explaining what is wrong. */
export function controlCallOf(argv: readonly string[]): ControlCall {
  const [verb, ...args] = argv;
  const need = (count: number, shape: string): string[] => {
    if (args.length < count) throw new RangeError(`${verb} needs ${shape}`);
    return args;
  };
  const process = (numero: string | undefined): string =>
    `/control/processes/${encodeURIComponent(numero ?? '')}`;
  switch (verb) {
    case 'create': {
      const [customer, type, mode] = need(3, '<customer> <type> <mode>');
      return { method: 'POST', path: '/control/processes', body: { customer, type, mode } };
    }
    case 'advance':
    case 'cancel':
      return { method: 'POST', path: `${process(need(1, '<numero>')[0])}/${verb}` };
    case 'event': {
      const [numero, code, ...words] = need(2, '<numero> <code> [description]');
      const description = words.join(' ');
      return {
        method: 'POST',
        path: `${process(numero)}/events`,
        body: { code, ...(description !== '' && { description }) },
      };
    }
    case 'retract': {
      const [numero, id] = need(2, '<numero> <eventId>');
      return { method: 'DELETE', path: `${process(numero)}/events/${encodeURIComponent(id ?? '')}` };
    }
    case 'customs': {
      const [numero, channel] = need(2, '<numero> <channel>');
      return { method: 'POST', path: `${process(numero)}/customs`, body: { channel } };
    }
    case 'eta': {
      const [numero, eta] = need(2, '<numero> <YYYY-MM-DD>');
      return { method: 'POST', path: `${process(numero)}/eta`, body: { eta } };
    }
    case 'clock':
      return clockCall(args);
    case 'faults': {
      const [mode, rate, seconds] = need(1, '<mode> [rate] [seconds], or off');
      if (mode === 'off') return { method: 'DELETE', path: '/control/faults' };
      return {
        method: 'POST',
        path: '/control/faults',
        body: {
          mode,
          ...(rate !== undefined && { rate: Number(rate) }),
          ...(seconds !== undefined && { seconds: Number(seconds) }),
        },
      };
    }
    case 'reset':
      return {
        method: 'POST',
        path: '/control/reset',
        body: args[0] === undefined ? {} : { seed: Number(args[0]) },
      };
    default:
      throw new RangeError(verb === undefined ? 'a verb is required' : `unknown verb ${verb}`);
  }
}

function clockCall(args: readonly string[]): ControlCall {
  const [action, duration] = args;
  if (action === undefined) return { method: 'GET', path: '/control/clock' };
  if (action === 'freeze' || action === 'resume')
    return { method: 'POST', path: '/control/clock', body: { [action]: true } };
  if (action === 'advance' && duration !== undefined)
    return { method: 'POST', path: '/control/clock', body: { advance: duration } };
  throw new RangeError('clock takes freeze, resume or advance <duration>');
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help') {
    process.stdout.write(`${CLI_USAGE}\n`);
    return;
  }
  let call: ControlCall;
  try {
    call = controlCallOf(argv);
  } catch (error) {
    process.stderr.write(`sandbox: ${(error as Error).message}\n\n${CLI_USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const base = process.env.SANDBOX_URL ?? `http://127.0.0.1:${process.env.SANDBOX_PORT ?? '3100'}`;
  const response = await fetch(new URL(call.path, base), {
    method: call.method,
    headers: {
      'x-api-key': process.env.OPERATIONS_API_KEY ?? 'demo-operations-key',
      ...(call.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
  });
  const answer: unknown = await response.json();
  if (!response.ok) {
    const { detail } = answer as { detail?: string };
    process.stderr.write(`sandbox: ${response.status} ${detail ?? JSON.stringify(answer)}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
}

// Run as the command, not when a test imports it.
if (process.argv[1]?.endsWith('cli.js') === true) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `sandbox: ${error instanceof Error ? error.message : String(error)} (is the sandbox running? npm start starts it)\n`,
    );
    process.exitCode = 1;
  });
}
