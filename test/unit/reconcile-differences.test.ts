import { expect } from 'chai';
import type { ProcessorRecord } from '../../packages/network/processors/processor.ts';
import { differences, type RecordedPayment } from '../../services/cli/reconcile.ts';

const window = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-01-02T00:00:00Z') };
const ours = (id: string, extra: Partial<RecordedPayment> = {}): RecordedPayment => ({
  kind: 'charge',
  id,
  amount: 1000,
  currency: 'EUR',
  status: 'successful',
  amountRefunded: 0,
  ...extra,
});
const theirs = (reference: string | null, extra: Partial<ProcessorRecord> = {}): ProcessorRecord => ({
  kind: 'charge',
  processorId: `p_${reference ?? 'none'}`,
  reference,
  chargeProcessorId: null,
  amount: 1000,
  currency: 'EUR',
  status: 'successful',
  amountRefunded: 0,
  created: new Date('2026-01-01T12:00:00Z'),
  ...extra,
});

describe('reconciliation: the differences between our payments and a processor records', () => {
  it('finds none when every payment matches by reference', () => {
    expect(differences([ours('char_1')], [theirs('char_1')], window)).to.deep.equal([]);
  });

  it('names each kind of difference', () => {
    const found = differences(
      [
        ours('char_missing'),
        ours('char_amount'),
        ours('char_status'),
        ours('char_refunded', { amountRefunded: 200 }),
        ours('cr_1', { kind: 'credit' }),
      ],
      [
        theirs('char_amount', { amount: 1200 }),
        theirs('char_status', { status: 'failed' }),
        theirs('char_refunded', { amountRefunded: 500 }),
        theirs('cr_1', { kind: 'credit', currency: 'USD' }),
        theirs(null),
        theirs('char_elsewhere', { created: new Date('2026-01-02T00:05:00Z') }),
      ],
      window,
    );
    expect(found.map(({ kind, object, id }) => [kind, object, id])).to.deep.equal([
      ['missing_there', 'charge', 'char_missing'],
      ['amount_differs', 'charge', 'char_amount'],
      ['status_differs', 'charge', 'char_status'],
      ['refunded_differs', 'charge', 'char_refunded'],
      ['amount_differs', 'credit', 'cr_1'],
      ['missing_here', 'charge', null],
    ]);
  });
});
