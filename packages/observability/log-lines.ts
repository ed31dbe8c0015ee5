import type { Writable } from 'node:stream';
import winston from 'winston';
import type TransportStream from 'winston-transport';

/** Where winston's formats leave the finished line (triple-beam's MESSAGE). */
const MESSAGE = Symbol.for('message');

/** Where finished log lines go. */
export interface LineSink {
  write(line: string): void;
}

/** Lines gathered before a turn of the event loop ends are written together; more than this at once are written at once. */
const MAX_BATCH_CHARS = 64 * 1024;

/**
 * Standard output, written once per turn of the event loop: a burst of requests costs one write
 * call instead of one per line (writes to a pipe or file block the loop while they last, and
 * under load every request logs). Whatever is pending is written before the process exits.
 */
class BatchedStdout implements LineSink {
  private pending: string[] = [];
  private pendingChars = 0;
  private scheduled = false;

  constructor() {
    process.once('exit', () => this.flush());
  }

  write(line: string): void {
    this.pending.push(line);
    this.pendingChars += line.length;
    if (this.pendingChars >= MAX_BATCH_CHARS) {
      this.flush();
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    process.stdout.write(text);
  }
}

let stdoutSink: BatchedStdout | undefined;

/** The process's standard output for log lines (one per process: they share the file descriptor). */
export function batchedStdout(): LineSink {
  stdoutSink ??= new BatchedStdout();
  return stdoutSink;
}

/** Writes pending log lines now: before the process is killed on purpose (fault injection). */
export function flushLogLines(): void {
  stdoutSink?.flush();
}

/** A stream given by the caller (tests): every line written to it as it comes. */
export function streamSink(stream: Writable): LineSink {
  return { write: (line) => void stream.write(line) };
}

/** winston's base transport class (exported as `Transport`; its typings name it `transport`). */
const BaseTransport = (winston as unknown as { Transport: typeof TransportStream }).Transport;

/** The winston transport of the logger: the formatted line (`info[MESSAGE]`) to a sink. */
export class LineTransport extends BaseTransport {
  constructor(private readonly sink: LineSink) {
    super();
  }

  override log(info: Record<string | symbol, unknown>, next: () => void): void {
    this.sink.write(`${info[MESSAGE] as string}\n`);
    next();
  }
}
