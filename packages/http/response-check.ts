import type { ZodType } from 'zod';
import type { Logger } from '../observability/logger.ts';
import type { StoredResponse } from './idempotency.ts';
import type { AnyRouteDefinition } from './route.ts';

/**
 * How an answer strays from its route's documented response schema, as `path: problem` lines
 * (empty when it does not). The answer is checked as clients receive it, after JSON encoding. A
 * field the schema does not declare is reported even where the schema would merely strip it: the
 * schema is the contract (and the OpenAPI document), so an undeclared field is a gap in it.
 */
export function responseSchemaViolations(schema: ZodType, answer: unknown): string[] {
  const sent: unknown = answer === undefined ? undefined : JSON.parse(JSON.stringify(answer));
  const parsed = schema.safeParse(sent);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => `${pathText(issue.path)}: ${issue.message}`);
  }
  return undeclaredFields(sent, parsed.data, []).map((path) => `${pathText(path)}: not in the response schema`);
}

/** Paths present in what was sent but dropped by parsing: fields the schema does not know. */
function undeclaredFields(sent: unknown, kept: unknown, path: PropertyKey[]): PropertyKey[][] {
  if (Array.isArray(sent)) {
    if (!Array.isArray(kept)) return [];
    return sent.flatMap((item, index) => undeclaredFields(item, kept[index], [...path, index]));
  }
  if (!isPlainObject(sent) || !isPlainObject(kept)) return [];
  return Object.keys(sent).flatMap((key) =>
    Object.hasOwn(kept, key) ? undeclaredFields(sent[key], kept[key], [...path, key]) : [[...path, key]],
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pathText(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(response)' : path.map(String).join('.');
}

/**
 * With strict responses on (a test and development setting), a 200 answer that strays from its
 * route's response schema becomes a loud 500 naming the stray fields, logged as an error.
 */
export function checkedResponse(
  route: Pick<AnyRouteDefinition, 'method' | 'path' | 'response'>,
  response: StoredResponse,
  logger: Logger,
): StoredResponse {
  if (response.status !== 200) return response;
  const violations = responseSchemaViolations(route.response, response.body);
  if (violations.length === 0) return response;
  const routeName = `${route.method.toUpperCase()} ${route.path}`;
  logger.error('Response does not match its schema', { route: routeName, violations });
  const message = `Response of ${routeName} does not match its schema (STRICT_RESPONSES): ${violations.join('; ')}`;
  return { status: 500, body: { error: { type: 'gateway_error', message } } };
}
