import { expect } from 'chai';
import { EventUpcasters } from '../../../packages/domain/event-upcasting.ts';
import { eventUpcasters } from '../../../packages/domain/event-upcasters.ts';

describe('event upcasting', () => {
  const renamed = new EventUpcasters([
    { eventType: 'ThingMade', fromVersion: 2, upcast: (data) => ({ ...data, size: `${String(data.size)}cm` }) },
    { eventType: 'ThingMade', fromVersion: 1, upcast: ({ length, ...data }) => ({ ...data, size: length }) },
  ]);

  it('chains the steps from the recorded version to the current one', () => {
    expect(renamed.currentVersion('ThingMade')).to.equal(3);
    expect(renamed.upcast('ThingMade', { length: 4 })).to.deep.equal({ size: '4cm' });
    expect(renamed.upcast('ThingMade', { size: 4 }, 2)).to.deep.equal({ size: '4cm' });
    expect(renamed.upcast('ThingMade', { size: '4cm' }, 3)).to.deep.equal({ size: '4cm' });
  });

  it('leaves event types without upcasters at version 1, unchanged', () => {
    expect(renamed.currentVersion('OtherThing')).to.equal(1);
    const data = { a: 1 };
    expect(renamed.upcast('OtherThing', data)).to.equal(data);
  });

  it('refuses events newer than the service knows, and gaps between versions', () => {
    expect(() => renamed.upcast('ThingMade', {}, 4)).to.throw(/version 4 is newer/);
    expect(() => new EventUpcasters([{ eventType: 'ThingMade', fromVersion: 2, upcast: (data) => data }])).to.throw(
      /one version at a time/,
    );
  });

  it('turns a version 1 card expiry into its decimal text, and leaves text alone', () => {
    expect(eventUpcasters.currentVersion('CardAdded')).to.equal(2);
    expect(
      eventUpcasters.upcast('ChargeFailed', { card: { expMonth: 5, expYear: 2030, last4: '0002' } }),
    ).to.deep.equal({
      card: { expMonth: '5', expYear: '2030', last4: '0002' },
    });
    expect(eventUpcasters.upcast('CardUpdated', { cardId: 'card_1', expYear: 2031 })).to.deep.equal({
      cardId: 'card_1',
      expYear: '2031',
    });
    expect(eventUpcasters.upcast('CardUpdated', { cardId: 'card_1', cardholderName: 'A' })).to.deep.equal({
      cardId: 'card_1',
      cardholderName: 'A',
    });
  });
});
