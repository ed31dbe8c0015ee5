import { fileView } from './views/file-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `files`: GET /files[/{id}] (filter: purpose). */
export const filesProjection = viewProjection('files', 'files', scopedIndexes('purpose'), fileView);
