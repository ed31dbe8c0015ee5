/**
 * Upcasting: the log can never be rewritten, so an event type whose data changes shape gets a new
 * schema version, and one upcaster per step turns data recorded in the old shape into the next
 * one. Deciders and views only ever see the current shape. Rules: docs/events.md, "Changing an event".
 */

/** Data as recorded: plain JSON, not yet trusted to have today's shape. */
export type RecordedData = Record<string, unknown>;

/** One step: data of `eventType` at `fromVersion` into `fromVersion + 1`. Pure, total, no I/O. */
export interface EventUpcaster {
  readonly eventType: string;
  readonly fromVersion: number;
  readonly upcast: (data: RecordedData) => RecordedData;
}

/** Events recorded before versions were kept carry none: they are version 1. */
export const FIRST_SCHEMA_VERSION = 1;

/** The upcasters of every event type, chained version by version. */
export class EventUpcasters {
  private readonly steps = new Map<string, EventUpcaster[]>();

  constructor(upcasters: readonly EventUpcaster[]) {
    for (const upcaster of upcasters) {
      const steps = this.steps.get(upcaster.eventType) ?? [];
      steps.push(upcaster);
      this.steps.set(upcaster.eventType, steps);
    }
    for (const [eventType, steps] of this.steps) {
      steps.sort((a, b) => a.fromVersion - b.fromVersion);
      steps.forEach((step, index) => {
        if (step.fromVersion !== FIRST_SCHEMA_VERSION + index)
          throw new Error(`${eventType}: upcasters must go from version 1 up one version at a time`);
      });
    }
  }

  /** The version new events of this type are recorded with. */
  currentVersion(eventType: string): number {
    return FIRST_SCHEMA_VERSION + (this.steps.get(eventType)?.length ?? 0);
  }

  /** Data recorded at `version` (1 when absent) in the current shape of its type. */
  upcast(eventType: string, data: RecordedData, version: number = FIRST_SCHEMA_VERSION): RecordedData {
    const current = this.currentVersion(eventType);
    if (version > current)
      throw new Error(`${eventType} version ${version} is newer than this service knows (${current})`);
    let upcast = data;
    for (const step of this.steps.get(eventType) ?? []) {
      if (step.fromVersion >= version) upcast = step.upcast(upcast);
    }
    return upcast;
  }
}
