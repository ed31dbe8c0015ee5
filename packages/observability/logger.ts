import type { Writable } from 'node:stream';
import winston, { format, type Logger } from 'winston';
import { batchedStdout, LineTransport, streamSink } from './log-lines.ts';
import { redactSensitive } from './redaction.ts';
import { currentRequestContext } from './request-context.ts';

export type { Logger } from 'winston';

export type LogLevel = 'error' | 'warn' | 'info' | 'http' | 'debug';

/** Adds the current request's id, account and key to the entry, unless the entry sets them itself. */
const requestContextFields = format((info) => {
  const context = currentRequestContext();
  if (context) {
    info.requestId ??= context.requestId;
    if (context.correlationId !== undefined) info.correlationId ??= context.correlationId;
    if (context.accountId !== undefined) info.accountId ??= context.accountId;
    if (context.keyId !== undefined) info.keyId ??= context.keyId;
  }
  return info;
});

/**
 * The process logger: one JSON object per line, on stdout unless another stream is given (tests).
 * Redaction runs last before serialization so that nothing added earlier escapes it. Lines for
 * stdout are written once per turn of the event loop (see log-lines.ts).
 */
export function createLogger(level: LogLevel = 'info', destination?: Writable): Logger {
  return winston.createLogger({
    level,
    format: format.combine(
      format.errors({ stack: true }),
      format.timestamp(),
      requestContextFields(),
      redactSensitive(),
      format.json(),
    ),
    transports: [new LineTransport(destination ? streamSink(destination) : batchedStdout())],
  });
}
