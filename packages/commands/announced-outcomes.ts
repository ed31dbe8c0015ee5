import type { NetworkOutcomeDue } from '../domain/charge/network-outcome-events.ts';
import type { LaterNetworkEvent } from '../network/card-network.ts';

/**
 * What the network announced for later, as the charge records it: each outcome due at the
 * charge's business time plus the network's delay.
 */
export function announcedOutcomes(later: LaterNetworkEvent[], now: Date): NetworkOutcomeDue[] {
  return later.map((event): NetworkOutcomeDue => {
    const dueAt = new Date(now.getTime() + event.afterMs).toISOString();
    return event.kind === 'dispute'
      ? { kind: 'dispute', dueAt, reason: event.reason, stage: event.stage }
      : { kind: 'fraud_warning', dueAt, fraudDetails: event.fraudDetails };
  });
}
