import { expect } from 'chai';
import { accountStream } from '../../../packages/domain/account/account-events.ts';
import { blacklistRuleStream } from '../../../packages/domain/blacklist/blacklist-events.ts';
import { chargeStream } from '../../../packages/domain/charge/charge-events.ts';
import { creditStream } from '../../../packages/domain/credit/credit-events.ts';
import { crossSaleOfferStream } from '../../../packages/domain/cross-sale-offer/cross-sale-offer-events.ts';
import { customerStream } from '../../../packages/domain/customer/customer-events.ts';
import { fileStream } from '../../../packages/domain/file/file-events.ts';
import { paymentMethodStream } from '../../../packages/domain/payment-method/payment-method-events.ts';
import { planStream } from '../../../packages/domain/plan/plan-events.ts';
import { hasOwnStreams, resourceNames, resources, type StreamResource } from '../../../packages/domain/resources.ts';
import { subscriptionStream } from '../../../packages/domain/subscription/subscription-events.ts';
import { testClockStream } from '../../../packages/domain/test-clock/test-clock-events.ts';
import { tokenStream } from '../../../packages/domain/token/token-events.ts';
import { webhookDeliveryStream } from '../../../packages/domain/webhook-delivery/webhook-delivery-events.ts';
import { webhookEndpointStream } from '../../../packages/domain/webhook-endpoint/webhook-endpoint-events.ts';
import { newId } from '../../../packages/ids/object-id.ts';
import { publicEventTypeNames, publicObjects } from '../../../projections/public-event-types.ts';
import { allProjections } from '../../../projections/index.ts';
import { commandFactories } from '../../../services/resource-commands.ts';
import { streamOfObject } from '../../../services/cli/stream-of-object.ts';

/** The stream function each aggregate's events module exports, by resource. */
const streamFunctions: Record<StreamResource, (id: string) => string> = {
  charge: chargeStream,
  credit: creditStream,
  customer: customerStream,
  paymentMethod: paymentMethodStream,
  file: fileStream,
  plan: planStream,
  subscription: subscriptionStream,
  testClock: testClockStream,
  token: tokenStream,
  crossSaleOffer: crossSaleOfferStream,
  blacklistRule: blacklistRuleStream,
  webhookEndpoint: webhookEndpointStream,
  webhookDelivery: webhookDeliveryStream,
  account: accountStream,
};

describe('the resource list and what is derived from it', () => {
  it('finds the stream of every object that has one by its id, and none for the others', () => {
    for (const resource of resourceNames) {
      const id = newId(resources[resource].idPrefix);
      if (hasOwnStreams(resource)) {
        expect(streamOfObject(id), resource).to.equal(`${resource}-${id}`);
        expect(streamFunctions[resource](id), resource).to.equal(streamOfObject(id));
      } else expect(streamOfObject(id), resource).to.equal(null);
    }
    expect(streamOfObject('nope_123')).to.equal(null);
    expect(streamOfObject('')).to.equal(null);
  });

  it('gives every projection and every collection one owner', () => {
    const projections = allProjections();
    const names = projections.map((projection) => projection.name);
    expect(new Set(names).size, names.join(', ')).to.equal(names.length);
    const collections = projections.flatMap((projection) => Object.keys(projection.collections));
    expect(new Set(collections).size, collections.join(', ')).to.equal(collections.length);
  });

  it('gives every public event type exactly one kind of object as data', () => {
    const declared = publicObjects.flatMap((object) => object.types);
    expect(declared).to.have.lengthOf(publicEventTypeNames.length);
    expect(new Set(declared)).to.have.lengthOf(declared.length);
    // Every declared type is produced by some domain event of its object, and nothing else is.
    const produced = new Set(
      publicObjects.flatMap((object) =>
        object.domainEventTypes.flatMap((type) =>
          ['successful', 'failed'].flatMap((status) =>
            object.produced({ type, data: { status, previousStatus: 'active' }, metadata: {} } as never),
          ),
        ),
      ),
    );
    expect([...produced].sort()).to.deep.equal([...declared].sort());
  });

  it('names every command service once', () => {
    const names = commandFactories().map(([name]) => name);
    expect(new Set(names).size, names.join(', ')).to.equal(names.length);
  });
});
