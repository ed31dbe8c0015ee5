import type { WriterSteps } from './sqlite-writer-thread.ts';

/** The statements of one transaction for the writer thread, each SQL text sent once. */
export class WriterTransaction {
  readonly statements: string[] = [];
  readonly steps: WriterSteps = [];
  private readonly numbers = new Map<string, number>();

  /** SQL without parameters (schema changes; several statements allowed). */
  exec(sql: string): this {
    this.steps.push(this.number(sql), 0);
    return this;
  }

  run(sql: string, parameters: readonly unknown[]): this {
    this.steps.push(this.number(sql), parameters.length, ...parameters);
    return this;
  }

  /** A step of one of the thread's own operations (`SqliteWriterThreadOptions.operations`). */
  call(operation: number, parameters: readonly unknown[]): this {
    this.steps.push(-1 - operation, parameters.length, ...parameters);
    return this;
  }

  /** The same, its parameters two values and then a row's (no array made of them all). */
  callOnRow(operation: number, first: unknown, second: unknown, row: readonly unknown[]): this {
    this.steps.push(-1 - operation, 2 + row.length, first, second, ...row);
    return this;
  }

  private number(sql: string): number {
    let found = this.numbers.get(sql);
    if (found === undefined) {
      found = this.statements.push(sql) - 1;
      this.numbers.set(sql, found);
    }
    return found;
  }
}
