import { InvalidRequestError } from '../domain/errors.ts';
import {
  webhookEndpointDecider,
  type WebhookEndpointCommand,
} from '../domain/webhook-endpoint/webhook-endpoint-decider.ts';
import { webhookEndpointResource, webhookEndpointStream } from '../domain/webhook-endpoint/webhook-endpoint-events.ts';
import { randomBase62 } from '../ids/object-id.ts';
import type { Vault } from '../vault/vault.ts';
import {
  DestinationRefused,
  resolveDestination,
  systemResolver,
  webhookUrlProblem,
  type HostResolver,
} from '../webhooks/webhook-destination.ts';
import type { AggregateStore } from './aggregate-store.ts';
import { createdObjectId, type CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';
import type { Mode } from '../domain/mode.ts';

export interface CreateWebhookEndpointInput {
  url: string;
  /** Public event types; absent or empty: every type. */
  events?: string[];
  description?: string;
  enabled?: boolean;
}

export interface UpdateWebhookEndpointInput {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

/** Vault kind of endpoint signing secrets (bound into their ciphertext). */
export const WEBHOOK_SECRET_KIND = 'webhook_secret';

/**
 * Webhook endpoints: where an account's public events are POSTed. The signing secret is made
 * here, kept only in the vault, and handed back once, by create. Live-mode URLs are checked
 * against the destination rules (https, public addresses) before deciding, as that needs DNS.
 */
export class WebhookEndpointCommands {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly vault: Vault,
    private readonly resolver: HostResolver = systemResolver,
  ) {}

  async create(
    input: CreateWebhookEndpointInput,
    context: CommandContext,
  ): Promise<CommandOutcome & { secret: string }> {
    await this.checkUrl(input.url, context.mode);
    const endpointId = createdObjectId(webhookEndpointResource, context);
    const earlier = await this.createdEarlier(endpointId, context);
    if (earlier) return earlier;
    const secret = `whsec_${randomBase62(32)}`;
    const secretVaultRef = await this.vault.store(WEBHOOK_SECRET_KIND, secret);
    try {
      const outcome = await this.aggregates.executeOn(
        webhookEndpointDecider,
        webhookEndpointStream,
        endpointId,
        {
          type: 'CreateWebhookEndpoint',
          endpoint: {
            endpointId,
            url: input.url,
            events: distinct(input.events ?? []),
            description: input.description ?? null,
            enabled: input.enabled ?? true,
            secretVaultRef,
          },
        },
        context,
      );
      return { ...outcome, secret };
    } catch (error) {
      await this.vault.erase(secretVaultRef);
      throw error;
    }
  }

  /** An earlier run of this idempotent request, cut short by a crash, created the endpoint: the same answer. */
  private async createdEarlier(
    endpointId: string,
    context: CommandContext,
  ): Promise<(CommandOutcome & { secret: string }) | null> {
    const position = await this.aggregates.createdEarlier(webhookEndpointStream(endpointId), context);
    if (position === undefined) return null;
    const { state } = await this.aggregates.load(webhookEndpointDecider, webhookEndpointStream(endpointId), context);
    const secret = state.status === 'active' ? await this.vault.reveal(state.endpoint.secretVaultRef) : null;
    // Deleted meanwhile: its secret is gone with it.
    if (secret === null) throw new InvalidRequestError(`Webhook endpoint '${endpointId}' has been deleted`);
    return { id: endpointId, position, secret };
  }

  async update(
    endpointId: string,
    input: UpdateWebhookEndpointInput,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    if (input.url !== undefined) await this.checkUrl(input.url, context.mode);
    const command: WebhookEndpointCommand = { type: 'UpdateWebhookEndpoint', endpointId };
    if (input.url !== undefined) command.url = input.url;
    if (input.events !== undefined) command.events = distinct(input.events);
    if (input.description !== undefined) command.description = input.description;
    if (input.enabled !== undefined) command.enabled = input.enabled;
    return this.aggregates.executeOn(webhookEndpointDecider, webhookEndpointStream, endpointId, command, context);
  }

  async delete(endpointId: string, context: CommandContext): Promise<CommandOutcome> {
    const result = await this.aggregates.execute(
      webhookEndpointDecider,
      webhookEndpointStream(endpointId),
      { type: 'DeleteWebhookEndpoint', endpointId },
      context,
    );
    // Nothing can be signed with it any more: pending deliveries of a deleted endpoint are canceled.
    if (result.state.status !== 'none') await this.vault.erase(result.state.endpoint.secretVaultRef);
    return { id: endpointId, position: result.position };
  }

  /** Test mode: any http(s) URL. Live mode: https, and every address of the host public. */
  private async checkUrl(url: string, mode: Mode): Promise<void> {
    const problem = webhookUrlProblem(url, mode);
    if (problem) throw new InvalidRequestError(`Invalid parameter: url ${problem}`);
    if (mode !== 'live') return;
    try {
      await resolveDestination(new URL(url), mode, this.resolver);
    } catch (error) {
      if (error instanceof DestinationRefused) throw new InvalidRequestError(`Invalid parameter: ${error.message}`);
      throw error;
    }
  }
}

/** Each type once, in the order first given. */
const distinct = (types: readonly string[]): string[] => [...new Set(types)];
