import { z } from 'zod';

/**
 * Parameter schemas for routes. Form bodies and query strings carry only strings, so the scalar
 * helpers also accept the string spelling of their value (`amount=100`, `captured=false`), and JSON
 * bodies may use real numbers and booleans: both validate to the same result. Every helper carries
 * its own message (the end of "Invalid parameter: <name> ...") and OpenAPI metadata.
 */

/** OpenAPI documentation a helper accepts; it adds sensible defaults of its own. */
export interface ParamDoc<T> {
  description?: string;
  example?: T;
}

/** Metadata limits (spec: Metadata gives the lengths; the pair limit is ours). */
export const METADATA_MAX_PAIRS = 50;
export const METADATA_MAX_LENGTH = 255;

const INTEGER_TEXT = /^-?\d+$/;
/** 9999-12-31T23:59:59Z: later timestamps are mistakes (often milliseconds instead of seconds). */
const MAX_TIMESTAMP = 253_402_300_799;

function int(options: { min?: number; max?: number } & ParamDoc<number> = {}) {
  const { min, max } = options;
  const message = integerMessage(min, max);
  let schema = z.number({ error: message }).int({ error: message });
  if (min !== undefined) schema = schema.min(min, { error: message });
  if (max !== undefined) schema = schema.max(max, { error: message });
  return z
    .preprocess((value) => (typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : value), schema)
    .meta(doc(options, { example: min ?? 1 }));
}

function integerMessage(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `must be an integer between ${min} and ${max}`;
  if (min !== undefined) return `must be an integer of at least ${min}`;
  if (max !== undefined) return `must be an integer of at most ${max}`;
  return 'must be an integer';
}

/** Text spellings of booleans: `True` / `False` are how Python's client library writes them in a query. */
const BOOLEAN_TEXT: Record<string, boolean> = { true: true, false: false, True: true, False: false, 1: true, 0: false };

function bool(options: ParamDoc<boolean> = {}) {
  return z
    .preprocess(
      (value) => (typeof value === 'string' && value in BOOLEAN_TEXT ? BOOLEAN_TEXT[value] : value),
      z.boolean({ error: 'must be a boolean (true or false)' }),
    )
    .meta(doc(options, { example: true }));
}

function string(options: { min?: number; max?: number } & ParamDoc<string> = {}) {
  let schema = z.string({ error: 'must be a string' });
  if (options.min !== undefined) {
    schema = schema.min(options.min, {
      error: options.min === 1 ? 'must not be empty' : `must be at least ${options.min} characters long`,
    });
  }
  if (options.max !== undefined)
    schema = schema.max(options.max, { error: `must be at most ${options.max} characters long` });
  return schema.meta(doc(options, {}));
}

function timestamp(options: ParamDoc<number> = {}) {
  const message = 'must be a Unix timestamp in seconds';
  return z
    .preprocess(
      (value) => (typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : value),
      z
        .number({ error: message })
        .int({ error: message })
        .min(0, { error: message })
        .max(MAX_TIMESTAMP, { error: message }),
    )
    .meta(doc(options, { description: 'Unix timestamp in seconds', example: 1_700_000_000 }));
}

function metadata(options: ParamDoc<Record<string, string>> = {}) {
  return z
    .record(
      z.string(),
      z
        .string({ error: 'must be a string' })
        .max(METADATA_MAX_LENGTH, { error: `must be at most ${METADATA_MAX_LENGTH} characters long` }),
      { error: 'must be an object of string keys and string values' },
    )
    .superRefine((pairs, ctx) => {
      const keys = Object.keys(pairs);
      if (keys.length > METADATA_MAX_PAIRS) {
        ctx.addIssue({ code: 'custom', message: `must have at most ${METADATA_MAX_PAIRS} keys` });
      }
      if (keys.some((key) => key.length > METADATA_MAX_LENGTH)) {
        ctx.addIssue({ code: 'custom', message: `keys must be at most ${METADATA_MAX_LENGTH} characters long` });
      }
    })
    .meta(
      doc(options, {
        description: `Custom key-value string pairs: at most ${METADATA_MAX_PAIRS} pairs, keys and values at most ${METADATA_MAX_LENGTH} characters each.`,
        example: { orderId: '1234' },
      }),
    );
}

/** An object parameter: an unknown field is an error ("Unknown parameter: charge[foo]"). */
function object<Shape extends z.ZodRawShape>(shape: Shape, options: ParamDoc<unknown> = {}) {
  return z.strictObject(shape, { error: 'must be an object' }).meta(doc(options, {}));
}

function enumOf<const Values extends readonly [string, ...string[]]>(
  values: Values,
  options: ParamDoc<Values[number]> = {},
) {
  return z.enum(values, { error: `must be one of: ${values.join(', ')}` }).meta(doc(options, { example: values[0] }));
}

/** Three letters in any case, upper-cased. Whether the account supports the currency is the domain's call. */
function currency(options: ParamDoc<string> = {}) {
  const message = 'must be a three-letter ISO currency code';
  return z
    .string({ error: message })
    .regex(/^[A-Za-z]{3}$/, { error: message })
    .transform((code) => code.toUpperCase())
    .meta(doc(options, { description: 'Three-letter ISO 4217 currency code', example: 'USD' }));
}

/** An object id with the given prefix; `p.id('cust')` and `p.id('cust_')` both expect `cust_…`. */
function id(prefix: string, options: ParamDoc<string> = {}) {
  const start = prefix.endsWith('_') ? prefix : `${prefix}_`;
  const pattern = new RegExp(`^${start}[A-Za-z0-9_-]{1,100}$`);
  return z
    .string({ error: `must be an id starting with ${start}` })
    .regex(pattern, { error: `must be an id starting with ${start}` })
    .meta(
      doc(options, { description: `Identifier starting with ${start}`, example: `${start}2Zk9q7LmN4xP1aBcD3eF5gH6` }),
    );
}

const cursor = (description: string) => string({ min: 1, max: 255, description });

/** The parameters every list endpoint accepts (spec: Endpoints › Conventions). */
export const listParams = {
  limit: int({ min: 1, max: 100, description: 'Page size, 1 to 100', example: 10 }).default(10),
  startingAfterId: cursor('Next page: the id of the last object of the previous page').optional(),
  endingBeforeId: cursor('Previous page: the id of the first object of the current page').optional(),
  created: object({
    gt: timestamp({ description: 'Created after' }).optional(),
    gte: timestamp({ description: 'Created at or after' }).optional(),
    lt: timestamp({ description: 'Created before' }).optional(),
    lte: timestamp({ description: 'Created at or before' }).optional(),
  })
    .meta({ description: 'Filter on the creation time', param: { style: 'deepObject', explode: true } })
    .optional(),
};

/** A list endpoint's query: the list parameters plus the endpoint's own filters, nothing else. */
function listQuery<Shape extends z.ZodRawShape>(extraShape: Shape) {
  return z.strictObject({ ...listParams, ...extraShape }, { error: 'must be an object' });
}

/** Zod metadata, read by zod-to-openapi; the caller's documentation wins over the defaults. */
function doc<T>(given: ParamDoc<T>, defaults: ParamDoc<T>): Record<string, unknown> {
  const merged = { description: given.description ?? defaults.description, example: given.example ?? defaults.example };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
}

export const p = { int, bool, string, timestamp, metadata, object, enum: enumOf, currency, id, listQuery };
