import type { DomainEvent } from '../decider.ts';
import { everyType } from '../event-types.ts';

/** The final verdict a fraud warning brings (a subset of the charge's fraud statuses). */
export interface FraudVerdict {
  status: 'suspicious' | 'fraudulent';
  /** Percentage chance that the charge is fraudulent. */
  score: number;
}

/**
 * The network warned that a successful charge is probably fraudulent: the charge's
 * `fraudDetails` take the verdict, and a fraud warning object (`fw_…`) records the warning.
 * `actionable`: the charge could still be refunded (captured, not fully refunded, not disputed)
 * when the warning arrived.
 */
export type FraudWarningReceived = DomainEvent<
  'FraudWarningReceived',
  { chargeId: string; fraudWarningId: string; fraudDetails: FraudVerdict; actionable: boolean }
>;

export const fraudWarningEventTypes = everyType<FraudWarningReceived>()(['FraudWarningReceived']);
