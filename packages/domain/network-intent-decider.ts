import type { Decider, DomainEvent } from './decider.ts';

/**
 * What the intent of a card payment records when it is started, beside the payment's id: the
 * reference the network knows the payment by and, in live mode, what the worker needs to settle a
 * request nobody retries (`docs/payments.md`, "Unanswered intents").
 */
export interface NetworkIntentStart<Attempt> {
  /** The merchant's reference the network knows the payment by. */
  networkReference: string;
  amount: number;
  currency: string;
  cardId: string;
  /** Live mode: the payment as requested, recorded by the worker when the processor answered it. */
  attempt?: Attempt;
  /** Live mode: when the worker looks the reference up if no outcome is recorded by then (ISO). */
  lookupDueAt?: string;
  /**
   * Live mode: from when a lookup that finds the reference at none of the processors closes the
   * intent (ISO): the end of the longest idempotency window of the account's processors.
   */
  closableAt?: string;
}

export type NetworkIntentState<Attempt> =
  | { started: false }
  | {
      started: true;
      networkReference: string;
      /** Closed as never made, and not started again since. */
      closed: boolean;
      attempt: Attempt | null;
      closableAt: string | null;
    };

/**
 * How one payment's intent names its commands and events (each aggregate keeps its own), and the
 * field that holds the payment's id in them.
 */
export interface NetworkIntentNames<Command extends { type: string }, Event extends DomainEvent> {
  idField: keyof Event['data'] & keyof Command & string;
  commands: { start: Command['type']; noteNotFound: Command['type']; close: Command['type'] };
  events: { started: Event['type']; notFound: Event['type']; closed: Event['type'] };
}

/**
 * The rule of every intent recorded before the card network is asked to move money (a charge's
 * authorization, a credit's transfer). Starting twice records nothing the second time: the caller
 * then reconciles with the network. Starting a closed intent opens it again (nothing was moved:
 * the retry asks afresh). Noting a lookup that found nothing, and closing, apply to an open intent only.
 */
export function networkIntentDecider<Command extends { type: string }, Event extends DomainEvent, Attempt>(
  names: NetworkIntentNames<Command, Event>,
): Decider<Command, Event, NetworkIntentState<Attempt>> {
  const { commands, events, idField } = names;
  const recorded = (type: Event['type'], data: object): Event => ({ type, data }) as Event;
  return {
    initialState: () => ({ started: false }),
    evolve: (state, event) => {
      if (event.type === events.started) {
        const start = event.data as NetworkIntentStart<Attempt>;
        return {
          started: true,
          networkReference: start.networkReference,
          closed: false,
          attempt: start.attempt ?? null,
          closableAt: start.closableAt ?? null,
        };
      }
      return event.type === events.closed && state.started ? { ...state, closed: true } : state;
    },
    decide(command, state) {
      const open = state.started && !state.closed;
      if (command.type === commands.start) {
        if (open) return [];
        const { type: _type, ...data } = command;
        return [recorded(events.started, data)];
      }
      if (!open) return [];
      const paymentId = { [idField]: command[idField] };
      if (command.type === commands.noteNotFound) {
        const { nextLookupAt } = command as Command & { nextLookupAt: string };
        return [recorded(events.notFound, { ...paymentId, nextLookupAt })];
      }
      return command.type === commands.close ? [recorded(events.closed, paymentId)] : [];
    },
  };
}
