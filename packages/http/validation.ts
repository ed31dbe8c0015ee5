import type { ZodType, z } from 'zod';
import { InvalidRequestError, missingParameter } from '../domain/errors.ts';

/**
 * Validates request parameters against a route's zod schema. A failure becomes one
 * `invalid_request` message about the first problem, naming the parameter the way the client
 * wrote it (`charge[amount]`, `created[gte]`):
 *   email: Must not be empty.
 *   Unknown parameter: foo
 *   Invalid parameter: limit must be an integer between 1 and 100
 * Messages never quote the value that was sent: it could be card data.
 */
export function validateParameters<T>(schema: ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input, { error: describeProblem, reportInput: true });
  if (result.success) return result.data;
  throw new InvalidRequestError(messageFor(result.error.issues));
}

/** The client's notation for a parameter path: `charge[amount]`, `items[0][name]`. */
export function parameterName(path: readonly PropertyKey[]): string {
  const [first, ...rest] = path.map(String);
  return (first ?? '') + rest.map((segment) => `[${segment}]`).join('');
}

function messageFor(issues: readonly z.core.$ZodIssue[]): string {
  // A misspelt parameter also shows up as a missing one; the unknown name is the better hint.
  const first = issues.find((candidate) => candidate.code === 'unrecognized_keys') ?? issues[0];
  if (!first) return 'Invalid request';
  const issue = withinUnion(first);
  if (issue.code === 'unrecognized_keys')
    return `Unknown parameter: ${parameterName([...issue.path, issue.keys[0] ?? ''])}`;
  const name = parameterName(issue.path);
  // A union (e.g. card fields taking text or numbers) reports a missing value as invalid_union, an enum as invalid_value.
  if (
    (issue.code === 'invalid_type' || issue.code === 'invalid_union' || issue.code === 'invalid_value') &&
    issue.input === undefined
  )
    return missingParameter(name).message;
  if (!name) return `Invalid request: ${issue.message}`;
  return `Invalid parameter: ${name} ${issue.message}`;
}

/**
 * A parameter that takes one of several shapes (an id or an object of details) and matches one by
 * type but fails inside it: the problem inside that shape names the parameter better
 * (`paymentMethod[type]: Must not be empty.` rather than "paymentMethod is invalid").
 */
function withinUnion(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.input === undefined) return issue;
  const wrongType = (branch: readonly z.core.$ZodIssue[]) =>
    branch.every((inner) => inner.code === 'invalid_type' && inner.path.length === 0);
  const matching = issue.errors.filter((branch) => !wrongType(branch));
  const branch = matching.length === 1 ? matching[0]! : null;
  const inner = branch && (branch.find((candidate) => candidate.code === 'unrecognized_keys') ?? branch[0]);
  return inner ? withinUnion({ ...inner, path: [...issue.path, ...inner.path] }) : issue;
}

/**
 * Phrases zod's problems as the end of "Invalid parameter: <name> ...". Used for schemas that do
 * not carry their own message; the `p` helpers do.
 */
function describeProblem(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${withArticle(issue.expected === 'int' ? 'integer' : issue.expected)}`;
    case 'too_small':
      return bound('at least', 'greater than', issue.minimum, issue.inclusive, issue.origin);
    case 'too_big':
      return bound('at most', 'less than', issue.maximum, issue.inclusive, issue.origin);
    case 'invalid_format':
      return issue.format === 'regex' ? 'has an invalid format' : `must be a valid ${issue.format}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${String(issue.values[0])}`
        : `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_key':
      return 'has an invalid key';
    default:
      return 'is invalid';
  }
}

function bound(
  inclusiveWord: string,
  exclusiveWord: string,
  limit: number | bigint,
  inclusive: boolean | undefined,
  origin: string,
): string {
  const relation = `${inclusive === false ? exclusiveWord : inclusiveWord} ${String(limit)}`;
  if (origin === 'string') return `must be ${relation} characters long`;
  if (origin === 'array' || origin === 'set') return `must have ${relation} items`;
  return `must be ${relation}`;
}

function withArticle(noun: string): string {
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}
