import type { BlacklistRuleEvent } from './blacklist-events.ts';
import type { BlacklistRule } from './blacklist-rule.ts';

/** Rules are never changed, only created and (softly) deleted. */
export type BlacklistRuleState = { status: 'none' } | { status: 'active' | 'deleted'; rule: BlacklistRule };

export const initialBlacklistRuleState = (): BlacklistRuleState => ({ status: 'none' });

export function evolveBlacklistRule(state: BlacklistRuleState, event: BlacklistRuleEvent): BlacklistRuleState {
  switch (event.type) {
    case 'BlacklistRuleCreated':
      return { status: 'active', rule: { ...event.data } };
    case 'BlacklistRuleDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
  }
}
