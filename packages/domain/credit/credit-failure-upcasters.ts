import type { EventUpcaster, RecordedData } from '../event-upcasting.ts';
import type { CreditEvent } from './credit-events.ts';

/**
 * Version 3 of `CreditFailed` names the blacklist rule that blocked the credit (`blacklistRuleId`),
 * as `ChargeFailed` always has. Versions 1 and 2 did not record it, so an older failed credit
 * reads `null`: the rule is not known from the log (the 402 answer of the time carried it).
 */
export const creditFailureRuleUpcasters: EventUpcaster[] = [
  {
    eventType: 'CreditFailed' satisfies CreditEvent['type'],
    fromVersion: 2,
    upcast: (data: RecordedData): RecordedData => ({ ...data, blacklistRuleId: null }),
  },
];
