import type { DocumentStore } from '../../packages/readstore/document-store.ts';
import { readStoreBuildText, readStoreBuildUnderWay } from '../projector/read-store-build-progress.ts';

/**
 * The line `projections status` adds while a full build of the read store runs, as the operator
 * console's section says it: the table shows the serving file's projections, which do not move
 * until the build switches. Null when none runs.
 */
export async function readStoreBuildNotice(stateStore: DocumentStore): Promise<string | null> {
  const underWay = await readStoreBuildUnderWay(stateStore);
  if (!underWay) return null;
  const build = underWay.record;
  if (!build)
    return `A full build of the read store is under way (${underWay.holder}); it has not recorded its progress yet.`;
  const who = build.startedBy === 'cli' ? 'projections rebuild --all' : 'the service at its start';
  return (
    `A full build of the read store is under way (${who}, into ${build.file}): ${readStoreBuildText(build)}. ` +
    'The projections above are the serving file’s until it switches.'
  );
}
