import { expect } from 'chai';
import type { WebhookEndpointEvent } from '../../../packages/domain/webhook-endpoint/webhook-endpoint-events.ts';
import {
  webhookEndpointsCollection,
  webhookEndpointsProjection,
} from '../../../projections/webhook-endpoints-projection.ts';
import { seconds } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const endpoint = inStream('webhookEndpoint-we_1');
const at = '2026-01-23T00:00:00Z';

describe('webhook endpoints projection', () => {
  const spec = projectionSpec(webhookEndpointsProjection);

  it('renders an endpoint without its secret, applies updates and soft-deletes', async () => {
    await spec().given(
      endpoint<WebhookEndpointEvent>(
        {
          type: 'WebhookEndpointCreated',
          data: {
            endpointId: 'we_1',
            url: 'https://shop.example/hooks',
            events: ['CHARGE_SUCCEEDED'],
            description: null,
            enabled: true,
            secretVaultRef: 'vault_secret_1',
          },
        },
        at,
      ),
    );
    const doc = (await spec().get(webhookEndpointsCollection, 'we_1'))!;
    expect(withoutInternals(doc)).to.deep.equal({
      id: 'we_1',
      created: seconds(at),
      objectType: 'webhookEndpoint',
      url: 'https://shop.example/hooks',
      events: ['CHARGE_SUCCEEDED'],
      description: null,
      enabled: true,
    });
    expect(JSON.stringify(doc)).to.not.include('vault_secret_1');
    await spec().given(
      endpoint<WebhookEndpointEvent>({
        type: 'WebhookEndpointUpdated',
        data: { endpointId: 'we_1', enabled: false, events: [] },
      }),
      endpoint<WebhookEndpointEvent>({ type: 'WebhookEndpointDeleted', data: { endpointId: 'we_1' } }),
    );
    expect(await spec().get(webhookEndpointsCollection, 'we_1')).to.deep.include({
      enabled: false,
      events: [],
      deleted: true,
      _deleted: true,
    });
    await spec().expectRebuildIdentical();
  });
});
