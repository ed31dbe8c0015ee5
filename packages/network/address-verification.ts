import type { AvsResult } from './card-network.ts';
import type { TestCardBehaviour } from './test-cards.ts';

/**
 * Address verification (AVS) of the simulated network. A zip that is empty or only whitespace
 * counts as no zip; a zip on its own counts as an address.
 *
 * - no address and no zip             → `not_provided`
 * - zip on a `zipMismatch` card (…0036) → `no_match` (the charge is then declined `incorrect_zip`)
 * - zip on any other card              → `full_match`
 * - address without a zip              → `partial_match` (on every card, …0036 included)
 *
 * `unavailable` is never produced by the simulator.
 */
export function verifyAddress(
  behaviour: TestCardBehaviour,
  address: { zip: string | null; addressProvided: boolean },
): AvsResult {
  const zip = address.zip?.trim() ? address.zip : null;
  if (zip !== null) return behaviour.zipMismatch ? 'no_match' : 'full_match';
  return address.addressProvided ? 'partial_match' : 'not_provided';
}
