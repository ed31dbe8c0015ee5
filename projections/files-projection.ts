import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { fileView, type FileDoc } from './views/file-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /files[/{id}] (filter: purpose). */
export const filesCollection = objectCollection<FileDoc>('files', 'File', scopedIndexes('purpose'));

/** `files`: one document per uploaded file. */
export const filesProjection = viewProjection('files', filesCollection, fileView);
