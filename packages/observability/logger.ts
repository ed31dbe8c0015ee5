import type { Writable } from 'node:stream';
import winston, { format, type Logger } from 'winston';
import { batchedStdout, LineTransport, streamSink, type LineSink } from './log-lines.ts';
import { redactSensitive, redactValue } from './redaction.ts';
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
 * The line `logger.log(level, message, fields)` writes for flat fields given in full (no request
 * context added), written without winston's stream pipeline: for the access log, one line per
 * request, where that pipeline cost more than the rest of the line. Same redaction, timestamp,
 * key order and JSON; fields left undefined are left out.
 */
export function writeFlatEntry(
  logger: Logger,
  level: LogLevel,
  message: string,
  fields: Record<string, string | number | boolean | undefined>,
): void {
  if (!logger.isLevelEnabled(level)) return;
  const sink = sinks.get(logger);
  if (!sink) {
    logger.log(level, message, fields);
    return;
  }
  const entry = redactValue({ ...fields, level, message, timestamp: new Date().toISOString() }) as Record<
    string,
    unknown
  >;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(entry).sort()) ordered[key] = entry[key];
  sink.write(`${JSON.stringify(ordered)}\n`);
}
