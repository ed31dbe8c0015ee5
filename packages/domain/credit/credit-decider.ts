import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import { sameMetadata, type Metadata } from '../metadata.ts';
import type { CreditAttempt, CreditEvent, CreditFailure, CreditUpdated } from './credit-events.ts';
import { evolveCredit, initialCreditState, type CreditState } from './credit-state.ts';

export type CreditCommand =
  /** The network has answered already: `failure` null means the funds were sent. */
  | { type: 'RecordCredit'; attempt: CreditAttempt; failure: CreditFailure | null }
  | { type: 'UpdateCredit'; creditId: string; description?: string | null; metadata?: Metadata };

export const creditDecider: Decider<CreditCommand, CreditEvent, CreditState> = {
  initialState: initialCreditState,
  evolve: evolveCredit,
  decide(command, state) {
    switch (command.type) {
      case 'RecordCredit':
        if (state.status !== 'none')
          throw new InvalidRequestError(`Credit '${command.attempt.creditId}' already exists`);
        return command.failure
          ? [{ type: 'CreditFailed', data: { ...command.attempt, ...command.failure } }]
          : [{ type: 'CreditSucceeded', data: command.attempt }];
      case 'UpdateCredit': {
        if (state.status === 'none') throw new NotFoundError('Credit', command.creditId);
        const changes: CreditUpdated['data'] = { creditId: command.creditId };
        if (command.description !== undefined && command.description !== state.description)
          changes.description = command.description;
        if (command.metadata !== undefined && !sameMetadata(command.metadata, state.metadata))
          changes.metadata = command.metadata;
        // An update that changes nothing records nothing.
        return Object.keys(changes).length > 1 ? [{ type: 'CreditUpdated', data: changes }] : [];
      }
    }
  },
};
