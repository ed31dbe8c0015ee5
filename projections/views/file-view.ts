import { fileEventTypes, type FileEvent } from '../../packages/domain/file/file-events.ts';
import type { Mode } from '../../packages/domain/mode.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import type { ObjectView } from './object-view.ts';

export interface FileDoc extends Document {
  objectType: 'file';
  purpose: string;
  _accountId: string;
  _mode: Mode;
}

/**
 * An uploaded file as GET /files/{id} renders it, but for `url`: the download address depends on
 * where the service is reached, so the routes add it.
 */
export const fileView: ObjectView<FileDoc> = {
  eventTypes: new Set(fileEventTypes),
  objectId: (event) => (event.data as { fileId?: string }).fileId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & FileEvent;
    if (event.type !== 'FileUploaded') return current;
    return {
      id: event.data.fileId,
      created: occurredAtSeconds(recorded),
      objectType: 'file',
      purpose: event.data.purpose,
      size: event.data.size,
      type: event.data.type,
      ...tenantFields(recorded),
    };
  },
};
