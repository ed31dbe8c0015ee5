import type { DomainEvent } from './decider.ts';

/** The types of `E` the list leaves out (never when it names them all). */
type Missing<E extends DomainEvent, Listed extends readonly string[]> = Exclude<E['type'], Listed[number]>;

/**
 * The list of every event type of the union `E`: `everyType<PlanEvent>()(['PlanCreated', …])`
 * does not compile while a type of `E` is missing from it (the error names it), nor with a type
 * that is not one of `E`.
 */
export const everyType =
  <E extends DomainEvent>() =>
  <const Listed extends readonly E['type'][]>(
    types: Listed & ([Missing<E, Listed>] extends [never] ? unknown : { missing: Missing<E, Listed> }),
  ): readonly E['type'][] =>
    types;
