import type { Collection, Document, DocumentStore } from '../readstore/document-store.ts';
import { checkpointKey } from './projection.ts';

/** Per projection: which build serves queries, and any rebuild asked for or under way. */
export interface ProjectionStateDoc extends Document {
  /** Projection name. */
  id: string;
  activeGeneration: number;
  /** Set by an operator (CLI) to ask the running projector for a rebuild. */
  rebuildRequestedAt?: string | null;
  rebuild?: {
    generation: number;
    startedAt: string;
    position: number;
    headPosition: number;
    finishedAt?: string;
  } | null;
}

export const projectionStates = (store: DocumentStore): Collection<ProjectionStateDoc> =>
  store.collection<ProjectionStateDoc>('_projections');

export async function readProjectionState(store: DocumentStore, name: string): Promise<ProjectionStateDoc> {
  return (await projectionStates(store).get(name)) ?? { id: name, created: 0, activeGeneration: 1 };
}

/** The log position a projection's serving generation has applied (0 before its first batch). */
export async function activeCheckpoint(store: DocumentStore, name: string): Promise<number> {
  const { activeGeneration } = await readProjectionState(store, name);
  return (await store.getCheckpoint(checkpointKey(name, activeGeneration))) ?? 0;
}

/** The projections among `names` that an operator asked to rebuild (see the CLI); each request is taken as it is read. */
export async function takeRebuildRequests(store: DocumentStore, names: readonly string[]): Promise<string[]> {
  const taken: string[] = [];
  for (const name of names) {
    const state = await readProjectionState(store, name);
    if (!state.rebuildRequestedAt) continue;
    await projectionStates(store).put({ ...state, rebuildRequestedAt: null });
    taken.push(name);
  }
  return taken;
}
