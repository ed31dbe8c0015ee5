import type { FileEvent, FilePurpose, FileType } from '../../packages/domain/file/file-events.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { objectView, fromEventAlone } from './object-view.ts';

/**
 * An uploaded file as stored for GET /files/{id}. The answer adds `url`: the download address
 * depends on where the service is reached, so the routes add it.
 */
export interface FileObject {
  id: string;
  created: number;
  objectType: 'file';
  purpose: FilePurpose;
  size: number;
  type: FileType;
}

export type FileDoc = FileObject & TenantScope;

export const fileView = objectView<FileDoc, FileEvent>({
  objectId: (event) => event.data.fileId,
  on: {
    FileUploaded: fromEventAlone((event) => ({
      id: event.data.fileId,
      created: occurredAtSeconds(event),
      objectType: 'file',
      purpose: event.data.purpose,
      size: event.data.size,
      type: event.data.type,
      ...tenantFields(event),
    })),
  },
});
