import { createHash } from 'node:crypto';
import { InvalidRequestError } from '../domain/errors.ts';
import { fileDecider } from '../domain/file/file-decider.ts';
import { filePurposes, fileResource, fileStream, type FilePurpose, type FileType } from '../domain/file/file-events.ts';
import type { FileStore } from '../files/file-store.ts';
import { newId } from '../ids/object-id.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CommandContext, Tenant } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';

/** What the sniffer reports (file-type's extensions) → the file type we record. */
const SNIFFED: Readonly<Record<string, FileType>> = { pdf: 'pdf', png: 'png', jpg: 'jpg', gif: 'gif' };

/**
 * Uploaded files: the type is told by the content (file-type), never by the name or the declared
 * content type; the bytes go to the file store first, then the upload is recorded (metadata
 * only), so a recorded file always has its bytes.
 */
export class FileCommands {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly store: FileStore,
    /** Largest file accepted (`FILE_MAX_BYTES`); the HTTP layer refuses bigger uploads with 413. */
    readonly maxFileBytes: number,
  ) {}

  async upload(bytes: Buffer, purpose: FilePurpose, context: CommandContext): Promise<CommandOutcome> {
    const allowed: readonly FileType[] = filePurposes[purpose];
    // Loaded on the first upload, not at start.
    const { fileTypeFromBuffer } = await import('file-type');
    const sniffed = await fileTypeFromBuffer(bytes);
    const type = sniffed ? SNIFFED[sniffed.ext] : undefined;
    if (!type || !allowed.includes(type)) {
      throw new InvalidRequestError(
        `Invalid parameter: file must be one of ${allowed.join(', ')} for purpose ${purpose} (told by its content${
          sniffed ? `, which is ${sniffed.ext}` : ', which is none of these'
        })`,
      );
    }
    const fileId = newId(fileResource);
    await this.store.save(fileId, bytes);
    const details = {
      fileId,
      purpose,
      size: bytes.length,
      type,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
    const result = await this.aggregates.execute(
      fileDecider,
      fileStream(fileId),
      { type: 'RecordUpload', details },
      context,
    );
    return { id: fileId, position: result.position };
  }

  /** Whether `fileId` is a file of this tenant (dispute evidence may only name those). */
  async exists(fileId: string, tenant: Tenant): Promise<boolean> {
    if (!fileId.startsWith('file_')) return false;
    const { state } = await this.aggregates.load(fileDecider, fileStream(fileId), tenant);
    return state.status !== 'none';
  }

  /** The bytes of a file of this tenant, with its type; null when it is not the tenant's. */
  async contents(fileId: string, tenant: Tenant): Promise<{ bytes: Buffer; type: FileType } | null> {
    const { state } = await this.aggregates.load(fileDecider, fileStream(fileId), tenant);
    if (state.status === 'none') return null;
    const bytes = await this.store.read(fileId);
    return bytes ? { bytes, type: state.type } : null;
  }
}
