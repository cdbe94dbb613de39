import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DriveRequest, DriveResult } from './driver.js';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The load generator (driver.ts) in its own process, one run at a time over IPC. */
export function startDriver(): {
  child: ChildProcess;
  run(request: Omit<DriveRequest, 'id'>): Promise<DriveResult>;
} {
  const child = fork(join(HERE, 'driver.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let id = 0;
  const pending = new Map<
    number,
    { resolve: (result: DriveResult) => void; reject: (error: Error) => void }
  >();
  child.on('message', (message: DriveResult & { error?: string }) => {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error !== undefined) waiter?.reject(new Error(message.error));
    else waiter?.resolve(message);
  });
  return {
    child,
    run: (request) =>
      new Promise((resolve, reject) => {
        const message: DriveRequest = { ...request, id: ++id };
        pending.set(message.id, { resolve, reject });
        child.send(message);
      }),
  };
}
