import type { CreditTransferEvent, CreditTransferStarted } from '../../../packages/domain/credit/credit-transfer.ts';
import { creditTransferDecider } from '../../../packages/domain/credit/credit-transfer.ts';
import { deciderSpec } from './decider-spec.ts';

const given = deciderSpec(creditTransferDecider);
const intent: CreditTransferStarted['data'] = {
  creditId: 'cr_1',
  networkReference: 'cr_1',
  amount: 1000,
  currency: 'EUR',
  cardId: 'card_1',
  lookupDueAt: '2026-03-01T00:00:02.000Z',
  closableAt: '2026-03-02T00:00:00.000Z',
};
const started: CreditTransferEvent = { type: 'CreditTransferStarted', data: intent };
const notFound: CreditTransferEvent = {
  type: 'CreditTransferNotFound',
  data: { creditId: 'cr_1', nextLookupAt: '2026-03-02T00:00:00.000Z' },
};
const closed: CreditTransferEvent = { type: 'CreditTransferClosed', data: { creditId: 'cr_1' } };

describe('credit transfer intent decider', () => {
  it('records the intent once: a second start is the retry, which reconciles with the network', () => {
    given([])
      .when({ type: 'StartTransfer', ...intent })
      .then([started]);
    given([started])
      .when({ type: 'StartTransfer', ...intent })
      .then([]);
  });

  it('notes a lookup that found the credit nowhere, and closes the open intent once', () => {
    given([started])
      .when({ type: 'NoteTransferNotFound', creditId: 'cr_1', nextLookupAt: '2026-03-02T00:00:00.000Z' })
      .then([notFound]);
    given([started, notFound]).when({ type: 'CloseTransfer', creditId: 'cr_1' }).then([closed]);
    given([started, notFound, closed]).when({ type: 'CloseTransfer', creditId: 'cr_1' }).then([]);
    given([started, closed])
      .when({ type: 'NoteTransferNotFound', creditId: 'cr_1', nextLookupAt: '2026-03-02T00:00:00.000Z' })
      .then([]);
  });

  it('records nothing about an intent that was never started', () => {
    given([]).when({ type: 'CloseTransfer', creditId: 'cr_1' }).then([]);
  });

  it('opens a closed intent again when the request is retried: nothing was sent, so it sends afresh', () => {
    given([started, closed])
      .when({ type: 'StartTransfer', ...intent })
      .then([started]);
    given([started, closed, started]).when({ type: 'CloseTransfer', creditId: 'cr_1' }).then([closed]);
  });
});
