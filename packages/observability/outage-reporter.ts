import type { Logger } from 'winston';

/**
 * Turns the stream of errors of a dependency that went away (every connection, every command,
 * every retry fails) into two log lines: one warning when it becomes unreachable and one notice
 * when it is back. Errors while it is down only go to the debug level.
 */
export class OutageReporter {
  private down = false;

  constructor(
    private readonly logger: Logger,
    /** What is unreachable, e.g. "Redis". */
    private readonly dependency: string,
    /** What the service does meanwhile, for the warning. */
    private readonly meanwhile: string,
  ) {}

  get isDown(): boolean {
    return this.down;
  }

  failed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (this.down) {
      this.logger.debug(`${this.dependency} still unreachable`, { error: message });
      return;
    }
    this.down = true;
    this.logger.warn(`${this.dependency} unreachable; ${this.meanwhile}`, {
      dependency: this.dependency,
      error: message,
    });
  }

  recovered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info(`${this.dependency} reachable again`, { dependency: this.dependency });
  }
}

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/** Whether an error says the connection failed, rather than that a command was wrong. */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return true;
  return /connection is closed|stream isn't writeable|max retries per request|enableOfflineQueue|redis is unreachable|ECONNREFUSED|ECONNRESET/i.test(
    error.message,
  );
}
