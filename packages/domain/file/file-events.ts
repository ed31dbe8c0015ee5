import type { DomainEvent } from '../decider.ts';
import { everyType } from '../event-types.ts';
import { resourceIdentity, streamName } from '../resource-identity.ts';

export const fileResource = resourceIdentity({ name: 'file', idPrefix: 'file', stream: 'own' });

/** Stream of one uploaded file: `file-<file_id>`. */
export const fileStream = (fileId: string): string => streamName(fileResource, fileId);

/** The file types uploads may have, told by their content, never by their name. */
export type FileType = 'pdf' | 'png' | 'jpg' | 'gif';

/** Why a file was uploaded, and which types each purpose accepts (docs/api.md, "Files"). */
export const filePurposes = {
  dispute_evidence: ['pdf', 'png', 'jpg', 'gif'],
  customer_signature: ['png', 'jpg', 'gif'],
  identity_document: ['pdf', 'png', 'jpg'],
} as const satisfies Record<string, readonly FileType[]>;
export type FilePurpose = keyof typeof filePurposes;
export const filePurposeNames = Object.keys(filePurposes) as [FilePurpose, ...FilePurpose[]];

/** What an upload records: what the file is, never its bytes (they are in the file store). */
export interface FileDetails {
  fileId: string;
  purpose: FilePurpose;
  /** Bytes. */
  size: number;
  type: FileType;
  /** SHA-256 of the bytes, hex: shows the stored bytes are the uploaded ones. */
  sha256: string;
}

export type FileUploaded = DomainEvent<'FileUploaded', FileDetails>;

export type FileEvent = FileUploaded;

export const fileEventTypes = everyType<FileEvent>()(['FileUploaded']);
