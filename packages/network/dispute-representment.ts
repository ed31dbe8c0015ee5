import type { DisputeEvidence } from '../domain/charge/dispute-events.ts';

/** The text that wins a contested dispute in the simulator (in `uncategorizedText`). */
export const WINNING_EVIDENCE = 'winning_evidence';

/**
 * How the simulated issuer decides a contested dispute, deterministically: evidence whose
 * `uncategorizedText` contains `winning_evidence` wins, any other evidence loses.
 */
export function reviewRepresentment(evidence: DisputeEvidence): 'won' | 'lost' {
  return evidence.uncategorizedText?.includes(WINNING_EVIDENCE) ? 'won' : 'lost';
}
