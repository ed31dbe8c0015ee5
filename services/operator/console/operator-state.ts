import { WebhookDeliveryCommands } from '../../../packages/commands/webhook-delivery-commands.ts';
import { projectionStates, readProjectionState } from '../../../packages/projection-runtime/projection-state.ts';
import { checkpointKey } from '../../../packages/projection-runtime/projection.ts';
import type { QueueCounts } from '../../../packages/jobs/job-queue.ts';
import {
  webhookDeliveriesCollection,
  type WebhookDeliveryDoc,
} from '../../../projections/webhook-deliveries-projection.ts';
import type { Platform } from '../../platform.ts';
import { LogCheckpoints, type LogCheckpoint } from '../../audit/log-checkpoints.ts';
import {
  currentReadStoreBuild,
  readStoreBuildUnderWay,
  type ReadStoreBuildProgressDoc,
} from '../../projector/read-store-build-progress.ts';
import { latestBackup, type LatestBackupDoc } from '../../backup/latest-backup.ts';
import { openWebhookCircuits, type WebhookCircuitDoc } from '../../worker/webhook-circuit-board.ts';
import { OBSERVED_QUEUES } from '../store-gauges.ts';

export interface ProjectionStatus {
  name: string;
  generation: number;
  checkpoint: number;
  head: number;
  lag: number;
  /** A rebuild asked for and not started yet, or under way: its progress. */
  rebuild: { requested: boolean; position: number; headPosition: number; finished: boolean } | null;
}

export type ReadStoreBuildStatus = Pick<
  ReadStoreBuildProgressDoc,
  'file' | 'startedBy' | 'startedAt' | 'position' | 'head' | 'eventsPerSecond' | 'phase'
>;

/** The log's tamper evidence as the console shows it (`docs/audit.md`, "Checkpoints over the whole log"). */
export interface TamperEvidence {
  latest: LogCheckpoint | null;
  checkpoints: number;
  head: number;
  /** Whether the projector records checkpoints by itself (`AUDIT_CHECKPOINT_INTERVAL_MS` > 0), and how often. */
  intervalMs: number;
}

/** The last backup of the data directory as the console shows it (`docs/operations.md`, "Backups"). */
export interface BackupStatus {
  latest: LatestBackupDoc | null;
  head: number;
  /** Embedded stores, which `backup` copies; the distributed ones are backed up with their own tools. */
  embedded: boolean;
}

/** What the console shows of a build's progress record. */
function statusOf(build: ReadStoreBuildProgressDoc): ReadStoreBuildStatus {
  const { file, startedBy, startedAt, position, head, eventsPerSecond, phase } = build;
  return { file, startedBy, startedAt, position, head, eventsPerSecond, phase };
}

/** The failed deliveries the console lists, most recent first. */
const FAILED_DELIVERIES_SHOWN = 50;

/** What the operator console shows and does, read from and written to the platform's stores. */
export class OperatorState {
  private readonly deliveries: WebhookDeliveryCommands;

  constructor(private readonly platform: Platform) {
    this.deliveries = new WebhookDeliveryCommands(platform.aggregates, platform.config.webhookRetryDelaysMs);
  }

  /** A full build of the embedded read store under way (at a start on an empty one, or `projections rebuild --all`), or null. */
  async readStoreBuild(): Promise<ReadStoreBuildStatus | null> {
    const build = await currentReadStoreBuild(this.platform.stateStore);
    return build && statusOf(build);
  }

  /**
   * A full read store build under way, or null: with its status once its builder has recorded
   * one, with none while only its lease shows it (`readStoreBuildUnderWay`).
   */
  async readStoreBuildUnderWay(): Promise<{ status: ReadStoreBuildStatus | null } | null> {
    const underWay = await readStoreBuildUnderWay(this.platform.stateStore);
    return underWay && { status: underWay.record && statusOf(underWay.record) };
  }

  async tamperEvidence(): Promise<TamperEvidence> {
    const checkpoints = new LogCheckpoints(this.platform.stateStore);
    const [latest, count, head] = await Promise.all([
      checkpoints.latest(),
      checkpoints.count(),
      this.platform.events.headPosition(),
    ]);
    return { latest, checkpoints: count, head, intervalMs: this.platform.config.auditCheckpointIntervalMs };
  }

  async backups(): Promise<BackupStatus> {
    const { config, events, stateStore } = this.platform;
    const [latest, head] = await Promise.all([latestBackup(stateStore), events.headPosition()]);
    return { latest, head, embedded: !config.eventStoreUrl && !config.mongodbUrl };
  }

  async projections(): Promise<ProjectionStatus[]> {
    const { events, readStore } = this.platform;
    const head = await events.headPosition();
    const rows: ProjectionStatus[] = [];
    for (const projection of this.platform.projections) {
      const state = await readProjectionState(readStore, projection.name);
      const checkpoint = (await readStore.getCheckpoint(checkpointKey(projection.name, state.activeGeneration))) ?? 0;
      const requested = Boolean(
        state.rebuildRequestedAt && (!state.rebuild || state.rebuild.startedAt < state.rebuildRequestedAt),
      );
      const rebuild = state.rebuild;
      rows.push({
        name: projection.name,
        generation: state.activeGeneration,
        checkpoint,
        head,
        lag: Math.max(0, head - checkpoint),
        rebuild:
          requested || rebuild
            ? {
                requested,
                position: requested ? 0 : (rebuild?.position ?? 0),
                headPosition: requested ? head : (rebuild?.headPosition ?? head),
                finished: !requested && Boolean(rebuild?.finishedAt),
              }
            : null,
      });
    }
    return rows;
  }

  /**
   * Asks the projector holding the lease to rebuild (it polls for the request): 'unknown' for an
   * unknown name; 'building' while a full build of the read store runs (the request would be lost
   * with the file it switches from, or make the build's generation stale and its switch refused).
   */
  async requestRebuild(name: string): Promise<'requested' | 'unknown' | 'building'> {
    if (!this.platform.projections.some((projection) => projection.name === name)) return 'unknown';
    if (await this.readStoreBuildUnderWay()) return 'building';
    const state = await readProjectionState(this.platform.readStore, name);
    await projectionStates(this.platform.readStore).put({ ...state, rebuildRequestedAt: new Date().toISOString() });
    return 'requested';
  }

  async queues(): Promise<{ queue: string; counts: QueueCounts }[]> {
    return Promise.all(
      OBSERVED_QUEUES.map(async (queue) => ({ queue, counts: await this.platform.jobs.counts(queue) })),
    );
  }

  /** The webhook endpoints whose circuit is open in some worker, most recently opened first. */
  openCircuits(): Promise<WebhookCircuitDoc[]> {
    return openWebhookCircuits(this.platform.stateStore);
  }

  async failedDeliveries(): Promise<WebhookDeliveryDoc[]> {
    const page = await this.platform.readModels
      .collection(webhookDeliveriesCollection)
      .list({ filter: { status: 'failed' }, limit: FAILED_DELIVERIES_SHOWN });
    return page.list;
  }

  /** Resends a failed delivery; false when there is no such delivery or it has not failed. */
  async resend(deliveryId: string, requestId: string): Promise<boolean> {
    const delivery = await this.platform.readModels.collection(webhookDeliveriesCollection).get(deliveryId);
    if (!delivery || delivery.status !== 'failed') return false;
    return this.deliveries.resend(
      { deliveryId, endpointId: delivery.endpointId, eventId: delivery.eventId, eventType: delivery.eventType },
      {
        accountId: delivery._accountId,
        mode: delivery._mode,
        actor: 'system:operator-console',
        requestId,
        now: () => new Date(),
      },
    );
  }
}
