import type { Mode } from '../domain/mode.ts';
import { flushLogLines } from '../observability/log-lines.ts';

/**
 * Test hook: kills the process (SIGKILL, as `kill -9` would) when a request reaches a named point,
 * so that tests can prove what a crash at exactly that point leaves behind. Armed only by
 * `FAULT_INJECTION=crash:<point>[,crash:<point>…]` (off by default) and only ever fires for
 * test-mode requests: the workers' jobs (`system:` actors) pass every point untouched, and so do
 * live-mode requests unless a point is armed for them by name (`crash-live:<point>`), for the tests
 * of live processing against a processor's test peer.
 */
export const FAULT_POINTS = [
  /** The charge's authorization intent is recorded; the card network has not been asked. */
  'charge.before-network-call',
  /** The card network has answered; nothing of the answer is recorded. */
  'charge.after-network-call',
  /** The charge's outcome is in the log; the read models may not show it yet. */
  'charge.after-append',
  /** A refund is reserved in the log; the card network has not been asked. */
  'refund.before-network-call',
  /** The card network has answered a refund; nothing of the answer is recorded. */
  'refund.after-network-call',
  /** A credit's transfer intent is recorded; the card network has not been asked. */
  'credit.before-network-call',
  /** The card network has sent a credit's funds; nothing of its answer is recorded. */
  'credit.after-network-call',
  /** A new customer, or a card saved to one, is in the log; what follows on other streams is not. */
  'customer.after-append',
  /** A new payment method is in the log; the charge that pays with it is not. */
  'payment-method.after-append',
  /** A new subscription is in the log with its first charge started; the charge is not made. */
  'subscription.after-append',
  /** An idempotent request's answer is built from the read models but neither stored nor sent. */
  'request.after-projection',
] as const;

export type FaultPoint = (typeof FAULT_POINTS)[number];

/** A point armed for test-mode requests, or (`live:<point>`) for live-mode requests. */
export type ArmedFault = FaultPoint | `live:${FaultPoint}`;

const armed = new Set<ArmedFault>();

/** Parses `crash:<point>` and `crash-live:<point>` entries; throws on anything else. */
export function parseFaultInjection(setting: string): ArmedFault[] {
  return setting
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const live = entry.startsWith('crash-live:');
      const point = live
        ? entry.slice('crash-live:'.length)
        : entry.startsWith('crash:')
          ? entry.slice('crash:'.length)
          : '';
      if (!(FAULT_POINTS as readonly string[]).includes(point))
        throw new Error(
          `must be crash:<point> or crash-live:<point> entries, with point one of ${FAULT_POINTS.join(', ')}`,
        );
      return live ? (`live:${point}` as ArmedFault) : (point as FaultPoint);
    });
}

export function armFaults(points: readonly ArmedFault[]): void {
  for (const point of points) armed.add(point);
}

/** Marks a point of a request; kills the process there when that point is armed for the request's mode. */
export function faultPoint(point: FaultPoint, request: { mode: Mode; actor: string }): void {
  if (request.actor.startsWith('system:')) return;
  if (!armed.has(request.mode === 'test' ? point : `live:${point}`)) return;
  // Written synchronously (stdout is a pipe or file): the test sees it before the kill.
  flushLogLines();
  process.stdout.write(`FAULT INJECTION: crash at ${point}\n`);
  process.kill(process.pid, 'SIGKILL');
}
