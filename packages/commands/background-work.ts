import type { Tenant } from '../domain/tenant.ts';
/**
 * Work that subscription and test-clock commands hand to the workers as jobs (the Jobs port, wired
 * in services). Handing it over may fail or be lost: the schedulers find the same work again in
 * the read models, so nothing depends on it arriving.
 */
export interface CaptureJob extends Tenant {
  subscriptionId: string;
  chargeId: string;
}

export interface AdvanceClockJob extends Tenant {
  testClockId: string;
  frozenTime: number;
}

export interface BackgroundWork {
  /** Capture an authorized subscription charge (captureCharges = true). */
  capture(job: CaptureJob): Promise<void>;
  /** Run the due work of a test clock's customers up to its new time. */
  advanceClock(job: AdvanceClockJob): Promise<void>;
}
