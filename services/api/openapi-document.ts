import { buildOpenApiDocument } from '../../packages/http/openapi.ts';
import type { ApiDependencies } from './api-dependencies.ts';
import { apiRoutes } from './routes/index.ts';

/**
 * Routes only touch their dependencies inside handlers; the document is built from their
 * schemas alone, so no store needs to be open (the CLI writes it without a running service).
 */
const handlersDoNotRun: ApiDependencies = new Proxy(function unavailable() {}, {
  get: () => handlersDoNotRun,
  apply() {
    throw new Error('The OpenAPI document is built from route schemas; handlers do not run');
  },
}) as unknown as ApiDependencies;

let cached: object | null = null;

export function buildOpenApi(): object {
  cached ??= buildOpenApiDocument(apiRoutes(handlersDoNotRun), {
    title: 'Card Payments API',
    version: '1.0.0',
    description: 'Charges, refunds, customers, cards, tokens, plans, subscriptions, events and webhooks.',
  });
  return cached;
}
