import type { Console } from 'node:console';
import type { Writable } from 'node:stream';

/** Where a run of the command line reads its settings and writes its output. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: Writable;
  stderr: Writable;
}

/** What the commands of one run write to, and how they fail it. */
export interface CliOutput extends CliIo {
  console: Console;
  /** The run ends with exit code 1 (a check found a break) without an error message. */
  fail(): void;
}
