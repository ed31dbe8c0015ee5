import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { z, type ZodType } from 'zod';
import { asOfQuery, readsOneObject } from './as-of.ts';
import { errorEnvelopeSchema } from './errors.ts';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency.ts';
import type { AnyRouteDefinition } from './route.ts';

export interface ApiInfo {
  title: string;
  version: string;
  description?: string;
}

/**
 * The OpenAPI 3.1 document of the routes, generated from their zod schemas. A schema given an id
 * with `.meta({ id: 'Customer' })` becomes one named component referenced wherever it is used
 * (zod allows each id once: define such a schema in one module and import it).
 */
export function buildOpenApiDocument(routes: readonly AnyRouteDefinition[], info: ApiInfo): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'basicAuth', {
    type: 'http',
    scheme: 'basic',
    description: 'Your API key as the user name, a blank password. The key selects account and mode (test or live).',
  });
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Your API key as bearer token.',
  });
  for (const route of routes) registry.registerPath(operation(route));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info: { ...info } });
}

function operation(route: AnyRouteDefinition): RouteConfig {
  return {
    method: route.method,
    path: route.path.replace(/:(\w+)/g, '{$1}'),
    summary: route.summary,
    tags: [route.tag],
    security: [{ basicAuth: [] }, { bearerAuth: [] }],
    request: {
      params: parameterObject(route.params) ?? pathParameters(route.path),
      query: readsOneObject(route) ? withAsOf(parameterObject(route.query)) : parameterObject(route.query),
      ...(route.method === 'post' && { headers: idempotencyHeader }),
      ...(route.body &&
        !route.upload && {
          body: {
            content: {
              'application/json': { schema: route.body },
              'application/x-www-form-urlencoded': { schema: route.body },
            },
          },
        }),
      ...(route.upload && {
        body: {
          content: {
            'multipart/form-data': {
              schema: z.object({
                [route.upload.fileField]: z
                  .string()
                  .meta({ format: 'binary', description: 'The file (size limit: FILE_MAX_BYTES, 413 above it)' }),
                ...(route.body instanceof z.ZodObject ? (route.body.shape as z.ZodRawShape) : {}),
              }),
            },
          },
        },
      }),
    },
    responses: {
      200: { description: 'Success', content: { 'application/json': { schema: route.response } } },
      ...errorResponses,
      ...(route.method === 'post' && {
        409: errorResponse('A request with the same Idempotency-Key is still being processed'),
      }),
      503: errorResponse(
        route.method === 'get'
          ? 'The service just started and is still applying its event log (`gateway_error`, Retry-After); retry'
          : 'The object kept being changed by other requests (`gateway_error`); nothing was recorded, retry',
      ),
    },
  };
}

const idempotencyHeader = z.object({
  'Idempotency-Key': z.string().max(IDEMPOTENCY_KEY_MAX_LENGTH).optional().meta({
    description: 'Makes the request safe to retry: a repeated key returns the first response (kept 24 hours).',
  }),
});

const errorResponse = (description: string): ResponseConfig => ({
  description,
  content: { 'application/json': { schema: errorEnvelopeSchema } },
});

const errorResponses: Record<string, ResponseConfig> = {
  400: errorResponse('Invalid or missing parameter (`invalid_request`)'),
  401: errorResponse('Missing or invalid API key (`invalid_request`)'),
  402: errorResponse('Card processing failed (`card_error` with `code`)'),
  404: errorResponse('No such object (`invalid_request`)'),
  429: errorResponse('Too many requests (`rate_limit_error`); see the Retry-After header'),
  500: errorResponse('Service-side failure (`gateway_error`)'),
};

/** A one-object read also documents `asOf` (packages/http/as-of.ts). */
function withAsOf(query: z.ZodObject | z.ZodPipe | undefined): z.ZodObject | z.ZodPipe {
  if (query === undefined) return asOfQuery;
  return query instanceof z.ZodObject ? query.extend(asOfQuery.shape) : query;
}

/** Path and query parameters must be documented from an object schema. */
function parameterObject(schema: ZodType | undefined): z.ZodObject | z.ZodPipe | undefined {
  return schema instanceof z.ZodObject || schema instanceof z.ZodPipe ? schema : undefined;
}

/** Routes without a params schema still declare their path placeholders, as strings. */
function pathParameters(path: string): z.ZodObject | undefined {
  const names = [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  return names.length ? z.object(Object.fromEntries(names.map((name) => [name, z.string()]))) : undefined;
}
