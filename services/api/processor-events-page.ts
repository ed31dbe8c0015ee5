import express, { type Router } from 'express';
import { readRawBody } from '../../packages/http/request-body.ts';
import { requestState } from '../../packages/http/request-state.ts';
import type { Logger } from '../../packages/observability/logger.ts';
import type { ReadModels } from '../../packages/projection-runtime/read-models.ts';
import type { Commands } from '../commands.ts';

/** Where an operator registers this service as the webhook of an account's processor. */
export const processorEventsPath = (accountId: string, processorId: string): string =>
  `/processor-events/${accountId}/${processorId}`;

/**
 * The endpoint a live processor sends its notifications to (`docs/operations.md`, "Processor
 * events"): one address per account and processor, no API key (the processor has none of ours);
 * each notification is verified the way its processor documents it before anything is recorded
 * (`ProcessorEventCommands`). Answers 200 `{ received: true }` for a notification taken (also one
 * about something not followed, or a repeat, which record nothing), 400 for one refused, 404 for
 * an address that names no processor of an account, 502 while it cannot be verified or its charge
 * is still pending here (the processor delivers it again). What it recorded is readable through the
 * API when it answers.
 */
export function processorEventsPage(
  deps: { commands: Commands; readModels: ReadModels; maxBodyBytes: number; readYourWritesTimeoutMs: number },
  logger: Logger,
): Router {
  const router = express.Router();
  router.post(processorEventsPath(':accountId', ':processorId'), readRawBody(deps.maxBodyBytes), async (req, res) => {
    const accountId = String(req.params.accountId);
    const processorId = String(req.params.processorId);
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
    const received = await deps.commands.processorEvents.receive(
      accountId,
      processorId,
      { body: req.body as Buffer, headers },
      { actor: `system:processor:${processorId}`, requestId: requestState(res).log.requestId, now: () => new Date() },
    );
    if (received.position !== null) {
      logger.info('Processor notification recorded', { accountId, processorId, chargeId: received.chargeId });
      // Answered once the API shows what it recorded, like every command (read-your-writes).
      await deps.readModels.waitFor(received.position, deps.readYourWritesTimeoutMs);
    }
    res.status(200).json({ received: true });
  });
  return router;
}
