import { createHash } from 'node:crypto';
import { InvalidRequestError } from '../domain/errors.ts';
import { fileDecider } from '../domain/file/file-decider.ts';
import { filePurposes, fileResource, fileStream, type FilePurpose, type FileType } from '../domain/file/file-events.ts';
import type { FileStore } from '../files/file-store.ts';
import { newId, isIdOf } from '../ids/object-id.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CommandContext } from './command-context.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { CommandOutcome } from './command-outcome.ts';

/** What the sniffer reports (file-type's extensions) → the file type we record. */
const SNIFFED: Readonly<Record<string, FileType>> = { pdf: 'pdf', png: 'png', jpg: 'jpg', gif: 'gif' };

/** A file name's extension → the file type it gives, for content no sniffer identifies. */
const NAMED: ReadonlyMap<string, FileType> = new Map([
  ['pdf', 'pdf'],
  ['png', 'png'],
  ['jpg', 'jpg'],
  ['jpeg', 'jpg'],
  ['gif', 'gif'],
]);

/**
 * Uploaded files: the type is told by the content (file-type) when the sniffer identifies it, and
 * content identified as another type is refused whatever its name; content it does not identify
 * (text, a PDF without its header) takes the type its file name gives, so that what the client
 * libraries upload as a PDF is one. Downloads are attachments that browsers may not sniff
 * (`X-Content-Type-Options: nosniff`), so such content is never shown as another type. The bytes
 * go to the file store first, then the upload is recorded (metadata only), so a recorded file
 * always has its bytes.
 */
export class FileCommands {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly store: FileStore,
    /** Largest file accepted (`FILE_MAX_BYTES`); the HTTP layer refuses bigger uploads with 413. */
    readonly maxFileBytes: number,
  ) {}

  async upload(
    bytes: Buffer,
    filename: string | null,
    purpose: FilePurpose,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    const type = await fileTypeOf(bytes, filename, filePurposes[purpose], purpose);
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
    if (!isIdOf(fileResource, fileId)) return false;
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

/** The type of an upload, if it is one the purpose allows; otherwise the 400 that says why not. */
async function fileTypeOf(
  bytes: Buffer,
  filename: string | null,
  allowed: readonly FileType[],
  purpose: FilePurpose,
): Promise<FileType> {
  // Loaded on the first upload, not at start.
  const { fileTypeFromBuffer } = await import('file-type');
  const sniffed = await fileTypeFromBuffer(bytes);
  const type = sniffed ? SNIFFED[sniffed.ext] : NAMED.get(extensionOf(filename));
  if (type && allowed.includes(type)) return type;
  // The name is not repeated: it is the client's text and could hold anything.
  const why = sniffed
    ? `told by its content, which is ${sniffed.ext}`
    : 'its content is of no type the service recognises, and its file name gives none of these';
  throw new InvalidRequestError(
    `Invalid parameter: file must be one of ${allowed.join(', ')} for purpose ${purpose} (${why})`,
  );
}

function extensionOf(filename: string | null): string {
  const dot = filename === null ? -1 : filename.lastIndexOf('.');
  return filename === null || dot === -1 ? '' : filename.slice(dot + 1).toLowerCase();
}
