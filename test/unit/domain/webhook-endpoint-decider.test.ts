import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { webhookEndpointDecider } from '../../../packages/domain/webhook-endpoint/webhook-endpoint-decider.ts';
import type {
  WebhookEndpoint,
  WebhookEndpointEvent,
} from '../../../packages/domain/webhook-endpoint/webhook-endpoint-events.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(webhookEndpointDecider);
const endpoint: WebhookEndpoint = {
  endpointId: 'we_1',
  url: 'https://hooks.example.com/a',
  events: ['CHARGE_SUCCEEDED'],
  description: null,
  enabled: true,
  secretVaultRef: 'vault_1',
};
const created: WebhookEndpointEvent = { type: 'WebhookEndpointCreated', data: { ...endpoint } };
const deleted: WebhookEndpointEvent = { type: 'WebhookEndpointDeleted', data: { endpointId: 'we_1' } };

describe('webhook endpoint decider', () => {
  it('creates an endpoint', () => {
    spec([]).when({ type: 'CreateWebhookEndpoint', endpoint }).then([created]);
  });

  it('refuses to create the same endpoint twice', () => {
    spec([created])
      .when({ type: 'CreateWebhookEndpoint', endpoint })
      .thenThrows(InvalidRequestError, /already exists/);
  });

  it('records only the fields an update changes', () => {
    spec([created])
      .when({
        type: 'UpdateWebhookEndpoint',
        endpointId: 'we_1',
        url: endpoint.url,
        events: [],
        enabled: false,
        description: null,
      })
      .then([{ type: 'WebhookEndpointUpdated', data: { endpointId: 'we_1', events: [], enabled: false } }]);
  });

  it('records nothing for an update that changes nothing', () => {
    spec([created])
      .when({ type: 'UpdateWebhookEndpoint', endpointId: 'we_1', events: ['CHARGE_SUCCEEDED'], enabled: true })
      .then([]);
  });

  it('sees earlier updates', () => {
    const disabled: WebhookEndpointEvent = {
      type: 'WebhookEndpointUpdated',
      data: { endpointId: 'we_1', enabled: false },
    };
    spec([created, disabled])
      .when({ type: 'UpdateWebhookEndpoint', endpointId: 'we_1', enabled: true })
      .then([{ type: 'WebhookEndpointUpdated', data: { endpointId: 'we_1', enabled: true } }]);
  });

  it('does not update a missing or deleted endpoint', () => {
    spec([]).when({ type: 'UpdateWebhookEndpoint', endpointId: 'we_1', enabled: false }).thenThrows(NotFoundError);
    spec([created, deleted])
      .when({ type: 'UpdateWebhookEndpoint', endpointId: 'we_1', enabled: false })
      .thenThrows(InvalidRequestError, /has been deleted/);
  });

  it('deletes once', () => {
    spec([created]).when({ type: 'DeleteWebhookEndpoint', endpointId: 'we_1' }).then([deleted]);
    spec([created, deleted])
      .when({ type: 'DeleteWebhookEndpoint', endpointId: 'we_1' })
      .thenThrows(InvalidRequestError, /already deleted/);
    spec([]).when({ type: 'DeleteWebhookEndpoint', endpointId: 'we_1' }).thenThrows(NotFoundError);
  });

  describe('a run of deliveries failed for good', () => {
    const end = (n: number, outcome: 'delivered' | 'failed') => ({
      type: 'RecordDeliveryEnd' as const,
      endpointId: 'we_1',
      deliveryId: `wd_${n}`,
      eventId: `event_${n}`,
      outcome,
      disableAfter: 3,
    });
    const failed = (n: number, failedInARow: number): WebhookEndpointEvent => ({
      type: 'WebhookEndpointDeliveryFailed',
      data: { endpointId: 'we_1', deliveryId: `wd_${n}`, eventId: `event_${n}`, failedInARow },
    });
    const cleared: WebhookEndpointEvent = { type: 'WebhookEndpointFailuresCleared', data: { endpointId: 'we_1' } };

    it('is counted, and disables the endpoint when it reaches the limit', () => {
      spec([created])
        .when(end(1, 'failed'))
        .then([failed(1, 1)]);
      spec([created, failed(1, 1), failed(2, 2)])
        .when(end(3, 'failed'))
        .then([
          failed(3, 3),
          { type: 'WebhookEndpointDisabledAutomatically', data: { endpointId: 'we_1', failedInARow: 3 } },
        ]);
    });

    it('ends with a delivered one, and is not counted for a disabled endpoint or without a limit', () => {
      spec([created, failed(1, 1), failed(2, 2)])
        .when(end(3, 'delivered'))
        .then([cleared]);
      spec([created, failed(1, 1), failed(2, 2), cleared])
        .when(end(3, 'failed'))
        .then([failed(3, 1)]);
      spec([created]).when(end(1, 'delivered')).then([]);
      const disabled: WebhookEndpointEvent = {
        type: 'WebhookEndpointUpdated',
        data: { endpointId: 'we_1', enabled: false },
      };
      spec([created, disabled]).when(end(1, 'failed')).then([]);
      spec([created, failed(1, 1), failed(2, 2)])
        .when({ ...end(3, 'failed'), disableAfter: 0 })
        .then([failed(3, 3)]);
    });

    it('starts afresh when the owner enables the endpoint again', () => {
      const autoDisabled: WebhookEndpointEvent = {
        type: 'WebhookEndpointDisabledAutomatically',
        data: { endpointId: 'we_1', failedInARow: 3 },
      };
      const enabled: WebhookEndpointEvent = {
        type: 'WebhookEndpointUpdated',
        data: { endpointId: 'we_1', enabled: true },
      };
      spec([created, failed(1, 1), failed(2, 2), failed(3, 3), autoDisabled])
        .when({ type: 'UpdateWebhookEndpoint', endpointId: 'we_1', enabled: true })
        .then([enabled]);
      spec([created, failed(1, 1), failed(2, 2), failed(3, 3), autoDisabled, enabled])
        .when(end(4, 'failed'))
        .then([failed(4, 1)]);
    });
  });
});
