import type { Writable } from 'node:stream';
import winston, { format, type Logger } from 'winston';
import { batchedStdout, LineTransport, streamSink, type LineSink } from './log-lines.ts';
import { redactSensitive } from './redaction.ts';
import { currentRequestContext } from './request-context.ts';

export type { Logger } from 'winston';
export type { LineSink } from './log-lines.ts';

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
  const sink = destination ? streamSink(destination) : batchedStdout();
  const logger = winston.createLogger({
    level,
    format: format.combine(
      format.errors({ stack: true }),
      format.timestamp(),
      requestContextFields(),
      redactSensitive(),
      format.json(),
    ),
    transports: [new LineTransport(sink)],
  });
  sinks.set(logger, sink);
  return logger;
}

/** Where each logger made here writes its lines, for writeFlatEntry. */
const sinks = new WeakMap<Logger, LineSink>();

/**
 * Where a line made outside winston (the access log's, in the logger's exact format: redaction,
 * timestamp, key order, JSON) goes, when the logger writes `level`: its sink for a logger made
 * here; null when the level is off; undefined for another logger (log through it instead).
 * Winston's stream pipeline cost more per request than the rest of an access line.
 */
export function lineSinkOf(logger: Logger, level: LogLevel): LineSink | null | undefined {
  if (!logger.isLevelEnabled(level)) return null;
  return sinks.get(logger);
}
