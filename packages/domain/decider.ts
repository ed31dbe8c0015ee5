/**
 * The decider pattern (Emmett style): an aggregate is three pure pieces.
 * `decide` turns a command and the current state into new events (or throws a DomainError);
 * `evolve` folds one event into the state. I/O (clock, ids, card network, vault) happens
 * before deciding: its results arrive inside the command.
 */
export interface Decider<Command, Event, State> {
  readonly initialState: () => State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (command: Command, state: State) => Event[];
}

/** A domain event as deciders see it: a type and its data, without store metadata. */
export interface DomainEvent<Type extends string = string, Data extends object = object> {
  readonly type: Type;
  readonly data: Data;
}

/** Folds events into a state with a decider's evolve. */
export function foldEvents<Event, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  events: Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState());
}
