import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import type { WebhookEndpoint, WebhookEndpointEvent, WebhookEndpointUpdated } from './webhook-endpoint-events.ts';
import {
  evolveWebhookEndpoint,
  initialWebhookEndpointState,
  type WebhookEndpointState,
} from './webhook-endpoint-state.ts';

/**
 * The URL arrives checked (live-mode address rules need DNS, which is I/O) and the secret already
 * in the vault; the decider keeps the lifecycle: create once, update while not deleted, delete once.
 */
export type WebhookEndpointCommand =
  | { type: 'CreateWebhookEndpoint'; endpoint: WebhookEndpoint }
  | ({ type: 'UpdateWebhookEndpoint'; endpointId: string } & Partial<
      Pick<WebhookEndpoint, 'url' | 'events' | 'description' | 'enabled'>
    >)
  | { type: 'DeleteWebhookEndpoint'; endpointId: string }
  /** A delivery ended: `disableAfter` failed deliveries in a row disable the endpoint (0: never). */
  | {
      type: 'RecordDeliveryEnd';
      endpointId: string;
      deliveryId: string;
      eventId: string;
      outcome: 'delivered' | 'failed';
      disableAfter: number;
    };

const OBJECT_NAME = 'Webhook endpoint';

export const webhookEndpointDecider: Decider<WebhookEndpointCommand, WebhookEndpointEvent, WebhookEndpointState> = {
  initialState: initialWebhookEndpointState,
  evolve: evolveWebhookEndpoint,
  decide(command, state) {
    switch (command.type) {
      case 'CreateWebhookEndpoint':
        if (state.status !== 'none')
          throw new InvalidRequestError(`${OBJECT_NAME} '${command.endpoint.endpointId}' already exists`);
        return [
          { type: 'WebhookEndpointCreated', data: { ...command.endpoint, events: [...command.endpoint.events] } },
        ];
      case 'UpdateWebhookEndpoint': {
        if (state.status === 'none') throw new NotFoundError(OBJECT_NAME, command.endpointId);
        if (state.status === 'deleted')
          throw new InvalidRequestError(`${OBJECT_NAME} '${command.endpointId}' has been deleted`);
        const current = state.endpoint;
        const changes: WebhookEndpointUpdated['data'] = { endpointId: command.endpointId };
        if (command.url !== undefined && command.url !== current.url) changes.url = command.url;
        if (command.events !== undefined && !sameList(command.events, current.events))
          changes.events = [...command.events];
        if (command.description !== undefined && command.description !== current.description)
          changes.description = command.description;
        if (command.enabled !== undefined && command.enabled !== current.enabled) changes.enabled = command.enabled;
        // An update that changes nothing records nothing.
        return Object.keys(changes).length > 1 ? [{ type: 'WebhookEndpointUpdated', data: changes }] : [];
      }
      case 'DeleteWebhookEndpoint':
        if (state.status === 'none') throw new NotFoundError(OBJECT_NAME, command.endpointId);
        if (state.status === 'deleted')
          throw new InvalidRequestError(`${OBJECT_NAME} '${command.endpointId}' is already deleted`);
        return [{ type: 'WebhookEndpointDeleted', data: { endpointId: command.endpointId } }];
      case 'RecordDeliveryEnd': {
        // Only an endpoint that receives deliveries keeps count.
        if (state.status !== 'active' || !state.endpoint.enabled) return [];
        const { endpointId } = command;
        if (command.outcome === 'delivered')
          return state.failedInARow > 0 ? [{ type: 'WebhookEndpointFailuresCleared', data: { endpointId } }] : [];
        const failedInARow = state.failedInARow + 1;
        const failed: WebhookEndpointEvent = {
          type: 'WebhookEndpointDeliveryFailed',
          data: { endpointId, deliveryId: command.deliveryId, eventId: command.eventId, failedInARow },
        };
        return command.disableAfter > 0 && failedInARow >= command.disableAfter
          ? [failed, { type: 'WebhookEndpointDisabledAutomatically', data: { endpointId, failedInARow } }]
          : [failed];
      }
    }
  },
};

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((item, index) => item === b[index]);
