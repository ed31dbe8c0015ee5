import { expect } from 'chai';
import type { WebhookDeliveryEvent } from '../../../packages/domain/webhook-delivery/webhook-delivery-events.ts';
import type { WebhookEndpointEvent } from '../../../packages/domain/webhook-endpoint/webhook-endpoint-events.ts';
import {
  webhookDeliveriesCollection,
  webhookDeliveriesProjection,
  webhookDeliveryId,
} from '../../../projections/webhook-deliveries-projection.ts';
import { webhookDueCollection } from '../../../projections/webhook-due-deliveries.ts';
import { publicObjects } from '../../../services/resources/registries.ts';
import { customerCreated, seconds } from './fixtures.ts';
import { inStream, projectionSpec, tenant, withoutInternals } from './projection-spec.ts';

const endpoint = (endpointId: string, events: string[]) =>
  inStream(`webhookEndpoint-${endpointId}`)<WebhookEndpointEvent>({
    type: 'WebhookEndpointCreated',
    data: {
      endpointId,
      url: 'https://shop.example/hooks',
      events,
      description: null,
      enabled: true,
      secretVaultRef: 'v',
    },
  });
const at = '2026-05-01T10:00:00Z';
/** Public events are dated when recorded: the specs run now. */
const startedAt = Math.floor(Date.now() / 1000);

describe('webhook deliveries projection', () => {
  const spec = projectionSpec(webhookDeliveriesProjection(publicObjects));

  it('delivers each public event to the endpoints of its tenant that subscribe to it, created after them', async () => {
    await spec().given(inStream('customer-cust_0')(customerCreated('cust_0')));
    await spec().given(endpoint('we_all', []), endpoint('we_charges', ['CHARGE_SUCCEEDED']), {
      ...inStream('webhookEndpoint-we_other')(endpointCreated('we_other')),
      tenant: { ...tenant, mode: 'live' },
    });
    await spec().given(inStream('customer-cust_1')(customerCreated('cust_1'), at));
    const deliveries = await spec().all(webhookDeliveriesCollection);
    expect(deliveries.map((delivery) => delivery.endpointId)).to.deep.equal(['we_all']);
    const [delivery] = deliveries;
    expect(withoutInternals(delivery!)).to.deep.include({
      id: webhookDeliveryId('we_all', delivery!.eventId),
      objectType: 'webhookDelivery',
      endpointId: 'we_all',
      eventType: 'CUSTOMER_CREATED',
      status: 'pending',
      attempts: [],
    });
    // Created with its event, when that was recorded.
    expect(delivery!.created)
      .to.be.within(startedAt, Math.ceil(Date.now() / 1000))
      .and.not.equal(seconds(at));
    expect(await spec().get(webhookDueCollection, delivery!.id)).to.include({ attempt: 1, endpointId: 'we_all' });
    await spec().expectRebuildIdentical();
  });

  it('records attempts: retrying keeps it due, delivered ends it', async () => {
    await spec().given(endpoint('we_all', []));
    await spec().given(inStream('customer-cust_1')(customerCreated('cust_1')));
    const [delivery] = await spec().all(webhookDeliveriesCollection);
    const ref = {
      deliveryId: delivery!.id,
      endpointId: 'we_all',
      eventId: delivery!.eventId,
      eventType: 'CUSTOMER_CREATED',
    };
    const stream = inStream(`webhookDelivery-${delivery!.id}`);
    await spec().given(
      stream<WebhookDeliveryEvent>({
        type: 'WebhookDeliveryAttempted',
        data: {
          ...ref,
          attempt: 1,
          attemptedAt: '2026-05-01T10:00:01.000Z',
          statusCode: 500,
          durationMs: 20,
          error: null,
          outcome: 'retrying',
          nextAttemptAt: '2026-05-01T10:01:01.000Z',
        },
      }),
    );
    expect(await spec().get(webhookDeliveriesCollection, delivery!.id)).to.deep.include({
      status: 'pending',
      nextAttemptAt: seconds('2026-05-01T10:01:01Z'),
      attempts: [
        { attempt: 1, created: seconds('2026-05-01T10:00:01Z'), statusCode: 500, durationMs: 20, error: null },
      ],
    });
    expect(await spec().get(webhookDueCollection, delivery!.id)).to.include({ attempt: 2 });
    await spec().given(
      stream<WebhookDeliveryEvent>({
        type: 'WebhookDeliveryAttempted',
        data: {
          ...ref,
          attempt: 2,
          attemptedAt: '2026-05-01T10:01:01.000Z',
          statusCode: 200,
          durationMs: 15,
          error: null,
          outcome: 'delivered',
          nextAttemptAt: null,
        },
      }),
    );
    const delivered = (await spec().get(webhookDeliveriesCollection, delivery!.id))!;
    expect(delivered).to.include({ status: 'delivered', nextAttemptAt: null });
    expect(delivered.attempts.map((attempt) => attempt.statusCode)).to.deep.equal([500, 200]);
    expect(await spec().all(webhookDueCollection)).to.deep.equal([]);
  });

  it('cancels a pending delivery', async () => {
    await spec().given(endpoint('we_all', []));
    await spec().given(inStream('customer-cust_1')(customerCreated('cust_1')));
    const [delivery] = await spec().all(webhookDeliveriesCollection);
    await spec().given(
      inStream(`webhookDelivery-${delivery!.id}`)<WebhookDeliveryEvent>({
        type: 'WebhookDeliveryCanceled',
        data: {
          deliveryId: delivery!.id,
          endpointId: 'we_all',
          eventId: delivery!.eventId,
          eventType: 'CUSTOMER_CREATED',
          reason: 'endpoint_deleted',
        },
      }),
    );
    expect(await spec().get(webhookDeliveriesCollection, delivery!.id)).to.include({
      status: 'canceled',
      nextAttemptAt: null,
    });
    expect(await spec().all(webhookDueCollection)).to.deep.equal([]);
  });

  it('makes a resent failed delivery pending again with its next attempt due at the request', async () => {
    await spec().given(endpoint('we_all', []));
    await spec().given(inStream('customer-cust_1')(customerCreated('cust_1')));
    const [delivery] = await spec().all(webhookDeliveriesCollection);
    const ref = {
      deliveryId: delivery!.id,
      endpointId: 'we_all',
      eventId: delivery!.eventId,
      eventType: 'CUSTOMER_CREATED',
    };
    const stream = inStream(`webhookDelivery-${delivery!.id}`)<WebhookDeliveryEvent>;
    await spec().given(
      stream({
        type: 'WebhookDeliveryAttempted',
        data: {
          ...ref,
          attempt: 1,
          attemptedAt: at,
          statusCode: 500,
          durationMs: 15,
          error: null,
          outcome: 'failed',
          nextAttemptAt: null,
        },
      }),
    );
    expect(await spec().all(webhookDueCollection)).to.deep.equal([]);
    const requestedAt = '2026-05-02T08:00:00.000Z';

    await spec().given(stream({ type: 'WebhookDeliveryResent', data: { ...ref, attempt: 2, requestedAt } }));

    expect(await spec().get(webhookDeliveriesCollection, delivery!.id)).to.include({
      status: 'pending',
      nextAttemptAt: seconds(requestedAt),
    });
    expect(await spec().get(webhookDueCollection, delivery!.id)).to.include({
      attempt: 2,
      dueAtMs: Date.parse(requestedAt),
      endpointId: 'we_all',
    });
    await spec().expectRebuildIdentical();
  });
});

function endpointCreated(endpointId: string): WebhookEndpointEvent {
  return {
    type: 'WebhookEndpointCreated',
    data: {
      endpointId,
      url: 'https://other.example',
      events: [],
      description: null,
      enabled: true,
      secretVaultRef: 'v',
    },
  };
}
