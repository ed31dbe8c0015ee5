import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Document } from '../../packages/readstore/document-store.ts';
import { SqliteDocumentStore } from '../../packages/readstore/sqlite-document-store.ts';
import { currentReadFile, type SqliteReadFiles } from '../../packages/readstore/sqlite-read-files.ts';
import type { ProjectionRunner } from '../../packages/projection-runtime/projection-runner.ts';

/** A rebuilt read store file that the running projector is asked to catch up and serve. */
interface SwitchRequestDoc extends Document {
  id: 'request';
  file: string;
  requestedAt: string;
  /** Why the projector did not switch; the request is then over. */
  error?: string;
}

const REQUEST_ID = 'request';
const POLL_MS = 100;
/** The projector looks for requests every 250 ms; a switch that has not happened by then never will. */
const GIVE_UP_MS = 120_000;

const switchRequests = (store: SqliteReadFiles) => store.collection<SwitchRequestDoc>('_read_store_switch');

/**
 * Asks the projector holding the lease to serve a rebuilt file (`docs/operations.md`): it is the
 * single writer of the read models, so it applies the events appended since the build's position
 * and switches between two of its own batches. Resolves once the data directory serves the file.
 */
export async function requestSwitch(readFiles: SqliteReadFiles, path: string): Promise<void> {
  const file = basename(path);
  await switchRequests(readFiles).put({ id: REQUEST_ID, created: 0, file, requestedAt: new Date().toISOString() });
  const asked = Date.now();
  for (;;) {
    if (currentReadFile(readFiles.dataDir) === file) return;
    const request = await switchRequests(readFiles).get(REQUEST_ID);
    if (request?.file === file && request.error) throw new Error(`The projector did not switch: ${request.error}`);
    if (Date.now() - asked > GIVE_UP_MS)
      throw new Error(`The running projector did not switch to ${file} within ${GIVE_UP_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The projector's side: serves a requested file, or records why not. */
export async function serveSwitchRequest(readFiles: SqliteReadFiles, runner: ProjectionRunner): Promise<string | null> {
  const request = await switchRequests(readFiles).get(REQUEST_ID);
  if (!request || request.error) return null;
  const path = join(readFiles.dataDir, request.file);
  let candidate: SqliteDocumentStore | null = null;
  try {
    if (!existsSync(path)) throw new Error(`No such read store file: ${request.file}`);
    candidate = new SqliteDocumentStore(path);
    await runner.adopt(candidate, () => readFiles.switchTo(path));
    return request.file;
  } catch (error) {
    await switchRequests(readFiles).put({ ...request, error: (error as Error).message });
    throw error;
  } finally {
    await candidate?.close();
  }
}
