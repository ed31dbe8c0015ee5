import { hostname } from 'node:os';
import { randomBase62 } from '../../packages/ids/object-id.ts';
import type { Collection, Document, DocumentStore } from '../../packages/readstore/document-store.ts';

interface LeaseDoc extends Document {
  holder: string;
  _expiresAt: number;
}

/**
 * An expiring lease in the state store: the projections run in one process at a time
 * (`docs/architecture.md`, "Process roles"), whichever holds the lease; a crashed holder's lease runs out and another takes over.
 */
export class Lease {
  readonly holder = `${hostname()}:${process.pid}:${randomBase62(6)}`;

  constructor(
    private readonly leases: Collection<LeaseDoc>,
    private readonly name: string,
    private readonly ttlMs = 10_000,
  ) {}

  /** Takes the lease if free, expired, or held by a dead process of this host (a crash, kill -9). */
  async tryAcquire(): Promise<boolean> {
    if (await this.leases.insert(this.doc())) return true;
    const current = await this.leases.get(this.name);
    if (!current || !heldByDeadLocalProcess(current.holder)) return false;
    await this.leases.delete(this.name);
    return this.leases.insert(this.doc());
  }

  /** Extends the lease; false when it was lost to another holder. */
  async renew(): Promise<boolean> {
    const current = await this.leases.get(this.name);
    if (current?.holder !== this.holder) return false;
    await this.leases.put(this.doc());
    return true;
  }

  async release(): Promise<void> {
    const current = await this.leases.get(this.name);
    if (current?.holder === this.holder) await this.leases.delete(this.name);
  }

  /**
   * Drops the lease whoever holds it: only for a copy of the state store (a backup), where the
   * holder is a process of the original that never runs on the copy.
   */
  async forget(): Promise<void> {
    await this.leases.delete(this.name);
  }

  /** Holder of a live lease, or null. */
  async currentHolder(): Promise<string | null> {
    return (await this.leases.get(this.name))?.holder ?? null;
  }

  private doc(): LeaseDoc {
    return {
      id: this.name,
      created: Math.floor(Date.now() / 1000),
      holder: this.holder,
      _expiresAt: Date.now() + this.ttlMs,
    };
  }
}

/** The projections' single writer (`docs/architecture.md`, "Process roles"). */
export function projectionsLease(stateStore: DocumentStore): Lease {
  return new Lease(stateStore.collection('_leases'), 'projections');
}

/**
 * A full build of the embedded read store (`projections rebuild --all`, or a start on an empty
 * one): one at a time, and while it is held a projection's own rebuild waits for its switch.
 */
export function readStoreBuildLease(stateStore: DocumentStore): Lease {
  return new Lease(stateStore.collection('_leases'), 'read-store-build');
}

/** Holders are `<host>:<pid>:<nonce>`; only a process of this host can be checked for life. */
function heldByDeadLocalProcess(holder: string): boolean {
  const [host, pid] = holder.split(':');
  if (host !== hostname() || !pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
