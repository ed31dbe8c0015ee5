import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DomainEvent } from '../../../packages/domain/decider.ts';
import type { Mode } from '../../../packages/domain/mode.ts';
import type { Tenant } from '../../../packages/domain/tenant.ts';
import type { EventMetadata, RecordedEvent } from '../../../packages/eventstore/event-store.ts';
import { SqliteEventStore } from '../../../packages/eventstore/sqlite-event-store.ts';
import { currentSchemaVersion, upcastRecordedEvent } from '../../../packages/eventstore/upcast-recorded-event.ts';
import { projectBatches, type ProjectionBuild } from '../../../packages/projection-runtime/projection-batch.ts';
import {
  checkpointKey,
  physicalCollectionName,
  type Projection,
} from '../../../packages/projection-runtime/projection.ts';
import type { ReadModelCollection } from '../../../packages/projection-runtime/read-model-collection.ts';
import type { Document } from '../../../packages/readstore/document-store.ts';
import { SqliteDocumentStore } from '../../../packages/readstore/sqlite-document-store.ts';

/** One domain event to record, in its stream, at a business time. */
export interface GivenEvent {
  stream: string;
  event: DomainEvent;
  /** ISO time it happened (business clock); default: the previous event's. */
  at?: string;
  tenant?: Tenant;
}

export const tenant = { accountId: 'acct_spec', mode: 'test' as Mode };

/** An event of `stream`; the type parameter checks its shape against the domain's event union. */
export const inStream =
  (stream: string) =>
  <E extends DomainEvent>(event: E, at?: string): GivenEvent => ({ stream, event, ...(at ? { at } : {}) });

/** The internal fields of a document, which API clients never see. */
export const withoutInternals = <T extends object>(doc: T): Record<string, unknown> =>
  Object.fromEntries(Object.entries(doc).filter(([key]) => !key.startsWith('_')));

/**
 * Given events → then documents, for one projection, on the real stores: events are appended to a
 * SQLite event log and projected into a SQLite document store (both in a temporary directory)
 * with the runner's own batch code, together with the projections it reads (`Projection.reads`),
 * as the runner projects them. Every batch is applied twice: once with each event delivered
 * twice in a row, then again as a restarted runner would (from the checkpoint stored with the
 * writes); the second time must change nothing. `expectRebuildIdentical` projects the whole log
 * into a fresh build and compares every document.
 */
export class ProjectionSpec {
  private readonly events: SqliteEventStore;
  private readonly store: SqliteDocumentStore;
  /** The projection's build last, after the builds of the projections it reads. */
  private builds: ProjectionBuild[];
  private occurredAt = '2026-01-05T10:00:00.000Z';

  private constructor(
    private readonly projection: Projection,
    private readonly dir: string,
  ) {
    this.events = new SqliteEventStore(join(dir, 'events.sqlite'));
    this.store = new SqliteDocumentStore(join(dir, 'read.sqlite'));
    this.builds = [...(projection.reads ?? []), projection].map((built) => ({
      projection: built,
      generation: 1,
      checkpoint: 0,
    }));
  }

  static of(projection: Projection): ProjectionSpec {
    return new ProjectionSpec(projection, mkdtempSync(join(tmpdir(), `projection-spec-${projection.name}-`)));
  }

  async close(): Promise<void> {
    await this.events.close();
    await this.store.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Records the events (one append per stream run) and projects them as one batch, twice. */
  async given(...given: GivenEvent[]): Promise<void> {
    const from = await this.events.headPosition();
    for (const { stream, event, at, tenant: scope } of given) {
      if (at) this.occurredAt = at;
      const metadata: EventMetadata = {
        ...(scope ?? tenant),
        occurredAt: this.occurredAt,
        requestId: `req_${randomUUID()}`,
        schemaVersion: currentSchemaVersion(event.type),
      };
      await this.events.appendToStream(
        stream,
        [{ id: randomUUID(), type: event.type, data: { ...event.data }, metadata }],
        { expectedRevision: 'any' },
      );
    }
    const batch = await this.events.readAll({ afterPosition: from });
    const doubled = batch.flatMap((event) => [event, event]);
    const checkpoints = await projectBatches(this.store, this.builds, doubled, upcastRecordedEvent);
    this.builds = this.builds.map((build, index) => ({ ...build, checkpoint: checkpoints[index]! }));
    const once = await this.snapshot(this.generation);

    // A restarted runner starts from the checkpoints committed with the writes.
    const restarted: ProjectionBuild[] = [];
    for (const build of this.builds) {
      const stored = await this.store.getCheckpoint(checkpointKey(build.projection.name, build.generation));
      expect(stored, 'checkpoint committed with the batch').to.equal(batch.at(-1)?.position ?? build.checkpoint);
      restarted.push({ ...build, checkpoint: stored ?? 0 });
    }
    await projectBatches(this.store, restarted, batch, upcastRecordedEvent);
    expect(await this.snapshot(this.generation), 'the batch applied again changes nothing').to.deep.equal(once);
  }

  /** A document of a collection of the projection's live build, or null. */
  async get<T extends Document>(collection: ReadModelCollection<T>, id: string): Promise<T | null> {
    return this.store.collection<T>(physicalCollectionName(collection.name, this.generation)).get(id);
  }

  /** Every document of a collection, as lists return them (newest first). */
  async all<T extends Document>(collection: ReadModelCollection<T>): Promise<T[]> {
    const page = await this.store
      .collection<T>(physicalCollectionName(collection.name, this.generation))
      .list({ limit: 100 });
    return page.list;
  }

  /** Projects the whole log into a fresh build: every document must be the same. */
  async expectRebuildIdentical(): Promise<void> {
    const rebuilt = this.builds.map((build) => ({ ...build, generation: build.generation + 1, checkpoint: 0 }));
    const log: RecordedEvent[] = await this.events.readAll();
    await projectBatches(this.store, rebuilt, log, upcastRecordedEvent);
    expect(await this.snapshot(this.generation + 1)).to.deep.equal(await this.snapshot(this.generation));
  }

  /** Generation of the live builds. */
  private get generation(): number {
    return this.builds.at(-1)!.generation;
  }

  /** Every document of every collection of one build, by collection. */
  private async snapshot(generation: number): Promise<Record<string, Document[]>> {
    const out: Record<string, Document[]> = {};
    for (const logical of Object.keys(this.projection.collections)) {
      const page = await this.store.collection(physicalCollectionName(logical, generation)).list({ limit: 1000 });
      out[logical] = page.list;
    }
    return out;
  }
}

/** Mocha hooks: a fresh spec per test, closed after it. */
export function projectionSpec(projection: Projection): () => ProjectionSpec {
  let spec: ProjectionSpec | undefined;
  beforeEach(() => {
    spec = ProjectionSpec.of(projection);
  });
  afterEach(async () => {
    await spec?.close();
    spec = undefined;
  });
  return () => {
    if (!spec) throw new Error('projectionSpec() is used inside a test only');
    return spec;
  };
}
