import type { Tenant } from '../domain/tenant.ts';
import { derivedId, newId, type IdPrefix } from '../ids/object-id.ts';
/** Who asks for a command, for which tenant, and when: becomes every event's metadata. */
export interface CommandContext extends Tenant {
  /** Key id of the API key, or `system:<process>` for jobs. */
  actor: string;
  requestId: string;
  /** The caller's own request id (client-given, validated); never used as an identifier of ours. */
  correlationId?: string;
  idempotencyKey?: string;
  /**
   * Set for requests with an `Idempotency-Key`: the ids of the objects the request creates derive
   * from it (`idempotentId`), so that running the request again after a crash finds them.
   */
  requestToken?: string;
  causationId?: string;
  /** The business clock (a test clock for test-clock customers). */
  now: () => Date;
  /** Set when `now` is a test clock's time: events then record the clock apart from real time. */
  testClockId?: string;
}

export const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

/**
 * Id of an object a command creates: derived from the request when it carries an
 * `Idempotency-Key` (a retry after a crash finds the object the first run committed), random
 * otherwise. `role` tells apart several objects of one prefix that one request creates.
 */
export const createdObjectId = (of: IdPrefix, context: CommandContext, role?: string): string =>
  context.requestToken === undefined ? newId(of) : derivedId(of, context.requestToken, role);

/** Whether `createdObjectId` draws ids at random for this request: no earlier run can have used them. */
export const createsNewIds = (context: CommandContext): boolean => context.requestToken === undefined;
