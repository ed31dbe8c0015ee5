import type { RequestHandler } from 'express';
import { lineSinkOf, type Logger } from '../observability/logger.ts';
import { redactText, redactValue } from '../observability/redaction.ts';
import { requestState } from './request-state.ts';

/** What an access line says of a request. */
export interface AccessLogFields {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  correlationId: string | undefined;
  accountId: string | undefined;
  keyId: string | undefined;
  aborted: true | undefined;
}

/**
 * One `info` line per request, written when the response is done: method, path (without the
 * query string), status, duration, request id, account and key id. Never bodies or headers.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const { log } = requestState(res);
    res.once('close', () => {
      const sink = lineSinkOf(logger, 'info');
      if (sink === null) return;
      const fields: AccessLogFields = {
        method: req.method,
        path: req.originalUrl.split('?')[0]!,
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        requestId: log.requestId,
        correlationId: log.correlationId,
        accountId: log.accountId,
        keyId: log.keyId,
        aborted: res.writableFinished ? undefined : true,
      };
      if (sink) sink.write(accessLogLine(fields));
      else logger.info('request', fields);
    });
    next();
  };
}

/**
 * The line `logger.info('request', fields)` writes, made directly: the same redaction (every
 * value, as `redactSensitive` does), timestamp, keys in sorted order, undefined fields left out,
 * JSON. Made field by field because it is one line per request, where copying, sorting and
 * redacting a generic entry cost more than the rest of the line.
 */
export function accessLogLine(fields: AccessLogFields): string {
  let line = '{';
  if (fields.aborted !== undefined) line += '"aborted":true,';
  if (fields.accountId !== undefined) line += `"accountId":${text(fields.accountId)},`;
  if (fields.correlationId !== undefined) line += `"correlationId":${text(fields.correlationId)},`;
  line += `"durationMs":${number(fields.durationMs)},`;
  if (fields.keyId !== undefined) line += `"keyId":${text(fields.keyId)},`;
  line += `"level":"info","message":"request","method":${text(fields.method)},"path":${text(fields.path)},`;
  line += `"requestId":${text(fields.requestId)},"status":${number(fields.status)},`;
  return `${line}"timestamp":"${new Date().toISOString()}"}\n`;
}

const text = (value: string): string => JSON.stringify(redactText(value));
const number = (value: number): string => JSON.stringify(redactValue(value));
