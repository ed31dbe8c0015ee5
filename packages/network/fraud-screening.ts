import { createHash } from 'node:crypto';
import type { FraudVerdict as WarningVerdict } from '../domain/charge/fraud-warning-events.ts';
import type { FraudStatus } from './card-network.ts';
import type { TestCardBehaviour } from './test-cards.ts';

/**
 * Fraud screening of the simulated network. Scores are integers 0–100 and deterministic: derived
 * from a SHA-256 hash of number and amount, never random.
 *
 * - ordinary cards: status `safe`, score 0–20;
 * - `fraudulent` card (4100000000000019): status `fraudulent`, score 90–100, the charge is blocked
 *   `suspected_fraud`;
 * - `warning_later` card (4242000000000208): status `in_progress` with the ordinary 0–20 score, the
 *   final verdict arrives with the later fraud warning. (If the charge fails for another reason no
 *   warning follows, and the simulator reports `safe` instead, see `simulated-card-network.ts`.)
 *
 * `suspicious` and `unknown` are never produced.
 */
export interface FraudVerdict {
  status: Extract<FraudStatus, 'safe' | 'fraudulent' | 'in_progress'>;
  score: number;
}

function hashToRange(number: string, amount: number, size: number): number {
  const digest = createHash('sha256').update(`${number}:${amount}`).digest();
  return digest.readUInt32BE(0) % size;
}

export function screenForFraud(behaviour: TestCardBehaviour, number: string, amount: number): FraudVerdict {
  if (behaviour.fraud === 'fraudulent') return { status: 'fraudulent', score: 90 + hashToRange(number, amount, 11) };
  const score = hashToRange(number, amount, 21);
  return { status: behaviour.fraud === 'warning_later' ? 'in_progress' : 'safe', score };
}

/** The verdict of the later fraud warning of the `warning_later` card: `fraudulent`, score 90–100. */
export function fraudWarningVerdict(number: string, amount: number): WarningVerdict {
  return { status: 'fraudulent', score: 90 + hashToRange(number, amount, 11) };
}
