import { z } from 'zod';
import { filePurposeNames } from '../../../packages/domain/file/file-events.ts';
import { p } from '../../../packages/http/params.ts';

const purpose = () =>
  p.enum(filePurposeNames, {
    description: 'Why the file is uploaded; decides the types accepted (docs/api.md, "Files")',
  });

/** `purpose` comes in the form body or in the query string: client libraries send it either way. */
export const uploadFileBody = p.object({ purpose: purpose().optional() });
export const uploadFileQuery = p.object({ purpose: purpose().optional() });

export const listFilesQuery = p.listQuery({ purpose: purpose().optional() });

export const fileIdParams = z.object({ fileId: z.string().meta({ description: 'File id (file_…)' }) });

export const fileSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('file'),
    purpose: z.enum(filePurposeNames),
    size: z.number().int().meta({ description: 'Bytes' }),
    type: z.enum(['pdf', 'png', 'jpg', 'gif']).meta({ description: 'File type, told by the content' }),
    url: z.string().meta({ description: 'Download address; needs the secret key' }),
  })
  .meta({ id: 'File' });
