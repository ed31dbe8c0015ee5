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
});
