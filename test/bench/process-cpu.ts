import { readFileSync } from 'node:fs';

/** Linux reports process times in clock ticks of 1/100 s on every architecture Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * A process's CPU time so far (user + system), in microseconds (Linux: /proc/<pid>/stat), or with
 * `mainThread` its main thread's alone (/proc/<pid>/task/<pid>/stat: the event loop's share, not
 * the worker threads' and thread pool's).
 */
export function processCpuMicros(pid: number, mainThread = false): number | null {
  try {
    const stat = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks / CLOCK_TICKS_PER_SECOND) * 1e6;
  } catch {
    return null; // not Linux
  }
}
