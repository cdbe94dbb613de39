import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks a second, the unit of utime/stime in /proc/<pid>/stat. */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * User + system CPU milliseconds a process has used so far (Linux /proc), all its threads; with
 * `thread`, that thread's alone (the process's own id is its main thread).
 */
export function cpuMillisOf(pid: number, thread?: number): number {
  const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** Resident set size now and its peak since start (VmHWM), in MiB. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string): number =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kib('VmRSS') / 1024, peakMb: kib('VmHWM') / 1024 };
}

/** Samples a process's RSS every `intervalMs` until stopped; returns the largest seen. */
export function sampleRss(pid: number, intervalMs = 100): { stop(): number } {
  let max = memoryOf(pid).rssMb;
  const timer = setInterval(() => {
    try {
      max = Math.max(max, memoryOf(pid).rssMb);
    } catch {
      // The process ended; the caller finds out on its own.
    }
  }, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return max;
    },
  };
}

export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
