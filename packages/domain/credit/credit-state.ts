import type { CreditAttempt, CreditEvent, CreditFailure } from './credit-events.ts';

/** A credit is settled when recorded: it only ever changes its description and metadata. */
export type CreditState =
  { status: 'none' } | ({ status: 'successful' | 'failed'; failure: CreditFailure | null } & CreditAttempt);

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
    case 'CreditUpdated': {
      if (state.status === 'none') return state;
      const { creditId: _id, ...changes } = event.data;
      return { ...state, ...changes };
    }
  }
}
