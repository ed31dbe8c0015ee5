import { everyDocument } from '../../packages/readstore/every-document.ts';
import { accountProcessors } from '../../packages/commands/account-processors.ts';
import { chargeDecider } from '../../packages/domain/charge/charge-decider.ts';
import { chargeStream } from '../../packages/domain/charge/charge-events.ts';
import type { Tenant } from '../../packages/domain/tenant.ts';
import { processorAdapter } from '../../packages/network/processors/adapters.ts';
import type { ProcessorRecord } from '../../packages/network/processors/processor.ts';
import type { ReadModelCollection } from '../../packages/projection-runtime/read-model-collection.ts';
import { chargesCollection } from '../../projections/charges-projection.ts';
import { creditsCollection } from '../../projections/credits-projection.ts';
import type { Platform } from '../platform.ts';

/** A live payment as this service recorded it, sent to a processor under its id as reference. */
export interface RecordedPayment {
  kind: 'charge' | 'refund' | 'credit';
  id: string;
  amount: number;
  currency: string;
  status: 'successful' | 'failed';
  /** Charges: what was refunded successfully. */
  amountRefunded: number;
}

export type DifferenceKind =
  'missing_here' | 'missing_there' | 'amount_differs' | 'status_differs' | 'refunded_differs';

export interface Difference {
  kind: DifferenceKind;
  object: 'charge' | 'refund' | 'credit';
  /** This service's id (the reference at the processor); null for an object only the processor has. */
  id: string | null;
  /** The processor's id of the object; null when the processor has none. */
  processorObjectId: string | null;
  here: Pick<RecordedPayment, 'amount' | 'currency' | 'status' | 'amountRefunded'> | null;
  there: Pick<ProcessorRecord, 'amount' | 'currency' | 'status' | 'amountRefunded'> | null;
}

/**
 * Every difference between what this service recorded and what the processors hold: matched by
 * reference (the processor's `metadata[reference]` is this service's id). `theirs` may reach a
 * little past the window on both sides, so that an object created near an edge on one side is
 * found on the other; only their records inside `window` can be missing here.
 */
export function differences(
  ours: RecordedPayment[],
  theirs: ProcessorRecord[],
  window: { from: Date; to: Date },
): Difference[] {
  const found: Difference[] = [];
  const byReference = new Map(theirs.filter((r) => r.reference !== null).map((r) => [r.reference!, r]));
  const ourIds = new Set(ours.map((payment) => payment.id));
  for (const payment of ours) {
    const here = {
      amount: payment.amount,
      currency: payment.currency,
      status: payment.status,
      amountRefunded: payment.amountRefunded,
    };
    const record = byReference.get(payment.id);
    const difference = (kind: DifferenceKind): Difference => ({
      kind,
      object: payment.kind,
      id: payment.id,
      processorObjectId: record?.processorId ?? null,
      here,
      there: record
        ? {
            amount: record.amount,
            currency: record.currency,
            status: record.status,
            amountRefunded: record.amountRefunded,
          }
        : null,
    });
    if (!record) found.push(difference('missing_there'));
    else if (record.amount !== payment.amount || record.currency !== payment.currency)
      found.push(difference('amount_differs'));
    else if (record.status !== payment.status) found.push(difference('status_differs'));
    else if (payment.kind === 'charge' && record.amountRefunded !== payment.amountRefunded)
      found.push(difference('refunded_differs'));
  }
  for (const record of theirs) {
    if (record.reference !== null && ourIds.has(record.reference)) continue;
    if (record.created < window.from || record.created > window.to) continue;
    found.push({
      kind: 'missing_here',
      object: record.kind,
      id: null,
      processorObjectId: record.processorId,
      here: null,
      there: {
        amount: record.amount,
        currency: record.currency,
        status: record.status,
        amountRefunded: record.amountRefunded,
      },
    });
  }
  return found;
}

/** How far past the window the processors' records are read, for objects created near an edge. */
const EDGE_MS = 10 * 60_000;

/**
 * Compares an account's live charges, refunds and credits created in the window with its
 * processors' records (`npm run cli -- reconcile`, `docs/operations.md`). Charges that never
 * reached a processor (refused by settings or the blacklist) and charges and credits still pending
 * are left out: the first have nothing to compare, the lookup settles the others.
 */
export async function reconcile(
  platform: Platform,
  accountId: string,
  window: { from: Date; to: Date },
  progress: (done: number, total: number) => void = () => {},
): Promise<Difference[]> {
  const tenant: Tenant = { accountId, mode: 'live' };
  const processors = await accountProcessors(platform.aggregates, accountId);
  const charges = await listed(platform, chargesCollection, tenant, window);
  const credits = await listed(platform, creditsCollection, tenant, window);
  const total = charges.length + credits.length + processors.length;
  let done = 0;
  const ours: RecordedPayment[] = [];
  for (const charge of charges) {
    const { state } = await platform.aggregates.load(chargeDecider, chargeStream(charge.id), tenant);
    progress(++done, total);
    if (state.status === 'none' || state.status === 'pending' || !state.processorId) continue;
    const refunds = state.refunds.filter((refund) => refund.status !== 'pending');
    ours.push({
      kind: 'charge',
      id: state.chargeId,
      amount: state.amount,
      currency: state.currency,
      status: state.status,
      amountRefunded: refunds.filter((r) => r.status === 'successful').reduce((sum, r) => sum + r.amount, 0),
    });
    for (const refund of refunds)
      ours.push({
        kind: 'refund',
        id: refund.refundId,
        amount: refund.amount,
        currency: state.currency,
        status: refund.status as 'successful' | 'failed',
        amountRefunded: 0,
      });
  }
  for (const credit of credits) {
    progress(++done, total);
    // Blocked here before any processor was asked, or still pending (its lookup settles it).
    if (credit.failureCode === 'blacklisted' || credit.status === 'pending') continue;
    ours.push({
      kind: 'credit',
      id: credit.id,
      amount: credit.amount,
      currency: credit.currency,
      status: credit.status,
      amountRefunded: 0,
    });
  }
  const theirs: ProcessorRecord[] = [];
  const wide = { from: new Date(window.from.getTime() - EDGE_MS), to: new Date(window.to.getTime() + EDGE_MS) };
  for (const config of processors) {
    const secretKey = await platform.vault.reveal(config.secretKeyRef);
    const processor = secretKey && processorAdapter({ ...config, secretKey });
    if (!processor) throw new Error(`${config.processorId}: its ${config.kind} records cannot be read by this build`);
    for await (const record of processor.records(wide)) theirs.push(record);
    progress(++done, total);
  }
  return differences(ours, theirs, window);
}

/** Every document of a live collection of the account created in the window. */
async function listed<T extends { id: string }>(
  platform: Platform,
  collection: ReadModelCollection<T & { id: string; created: number }>,
  tenant: Tenant,
  window: { from: Date; to: Date },
): Promise<T[]> {
  return everyDocument(platform.readModels.collection(collection), {
    filter: { _accountId: tenant.accountId, _mode: tenant.mode },
    created: { gte: Math.floor(window.from.getTime() / 1000), lte: Math.floor(window.to.getTime() / 1000) },
  });
}
