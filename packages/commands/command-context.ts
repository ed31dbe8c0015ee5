import type { Mode } from '../domain/mode.ts';
/** Who asks for a command, for which tenant, and when: becomes every event's metadata. */
export interface CommandContext {
  accountId: string;
  mode: Mode;
  /** Key id of the API key, or `system:<process>` for jobs. */
  actor: string;
  requestId: string;
  /** The caller's own request id (client-given, validated); never used as an identifier of ours. */
  correlationId?: string;
  idempotencyKey?: string;
  causationId?: string;
  /** The business clock (a test clock for test-clock customers). */
  now: () => Date;
  /** Set when `now` is a test clock's time: events then record the clock apart from real time. */
  testClockId?: string;
}

/** Tenant a stored event belongs to. */
export interface Tenant {
  accountId: string;
  mode: Mode;
}

export const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
