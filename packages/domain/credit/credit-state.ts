import type { CreditAttempt, CreditEvent, CreditFailure } from './credit-events.ts';

/**
 * A credit is settled when recorded, or in live mode `pending` until a lookup at the processors
 * settles it; otherwise it only ever changes its description and metadata.
 */
export type CreditState =
  { status: 'none' } | ({ status: 'pending' | 'successful' | 'failed'; failure: CreditFailure | null } & CreditAttempt);

export const initialCreditState = (): CreditState => ({ status: 'none' });

export function evolveCredit(state: CreditState, event: CreditEvent): CreditState {
  switch (event.type) {
    case 'CreditSucceeded':
      return { status: 'successful', failure: null, ...event.data };
    case 'CreditFailed': {
      const { failureCode, failureMessage, failureIssuerDeclineCode, blacklistRuleId, ...attempt } = event.data;
      return {
        status: 'failed',
        failure: { failureCode, failureMessage, failureIssuerDeclineCode, blacklistRuleId },
        ...attempt,
      };
    }
    case 'CreditPending': {
      const { lookupDueAt: _due, ...attempt } = event.data;
      return { status: 'pending', failure: null, ...attempt };
    }
    case 'CreditSettled':
      if (state.status === 'none') return state;
      return { ...state, status: event.data.failure ? 'failed' : 'successful', failure: event.data.failure };
    case 'CreditUpdated': {
      if (state.status === 'none') return state;
      const { creditId: _id, ...changes } = event.data;
      return { ...state, ...changes };
    }
  }
}
