import type { CommandContext } from '../../packages/commands/command-context.ts';
import type { RequestContext } from '../../packages/http/route.ts';

/** The command context of an API request: the caller's tenant and key, its request and idempotency key. */
export function commandContext(request: RequestContext<unknown, unknown, unknown>): CommandContext {
  const context: CommandContext = {
    accountId: request.auth.accountId,
    mode: request.auth.mode,
    actor: request.auth.keyId,
    requestId: request.requestId,
    now: () => new Date(),
  };
  if (request.idempotencyKey !== undefined) context.idempotencyKey = request.idempotencyKey;
  if (request.requestToken !== undefined) context.requestToken = request.requestToken;
  if (request.correlationId !== undefined) context.correlationId = request.correlationId;
  return context;
}
