import { z } from 'zod';
import { InvalidRequestError, NotFoundError, missingParameter } from '../../../packages/domain/errors.ts';
import { defineRoute, FileDownload, type AnyRouteDefinition } from '../../../packages/http/route.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { commandContext } from '../request-command-context.ts';
import { publicBaseUrl, type RequestAddress } from '../public-base-url.ts';
import { filesCollection as collection } from '../../../projections/files-projection.ts';
import type { FileObject } from '../../../projections/views/file-view.ts';
import { listOf } from '../schemas/common-schemas.ts';
import { fileIdParams, fileSchema, listFilesQuery, uploadFileBody, uploadFileQuery } from '../schemas/file-schemas.ts';

const tag = 'Files';
const objectName = 'File';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
};

export function fileRoutes({ commands, reader }: ApiDependencies): AnyRouteDefinition[] {
  /** A file as answered: the stored object plus its download address on this service. */
  const withUrl = (file: FileObject, request: RequestAddress) => ({
    ...file,
    url: `${publicBaseUrl(request)}/files/${file.id}/contents`,
  });

  return [
    defineRoute({
      method: 'post',
      path: '/files',
      summary: 'Upload a file (multipart/form-data: a file part and purpose, in the form or the query string)',
      tag,
      upload: {
        fileField: 'file',
        // Read when the app is built: the OpenAPI document is built from routes without commands.
        get maxFileBytes() {
          return commands.files.maxFileBytes;
        },
      },
      query: uploadFileQuery,
      body: uploadFileBody,
      response: fileSchema,
      async handler(request) {
        const fromBody = request.body.purpose;
        const fromQuery = request.query.purpose;
        if (fromBody !== undefined && fromQuery !== undefined && fromBody !== fromQuery)
          throw new InvalidRequestError('Invalid parameter: purpose differs between the form and the query string');
        const purpose = fromBody ?? fromQuery;
        if (purpose === undefined) throw missingParameter('purpose');
        if (!request.file) throw missingParameter('file');
        const { bytes, filename } = request.file;
        const outcome = await commands.files.upload(bytes, filename, purpose, commandContext(request));
        return withUrl(await reader.getAfter(outcome.position, collection, outcome.id, request.auth), request);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/files/:fileId',
      summary: 'Retrieve a file object',
      tag,
      params: fileIdParams,
      response: fileSchema,
      handler: async (request) => withUrl(await reader.get(collection, request.params.fileId, request.auth), request),
    }),
    defineRoute({
      method: 'get',
      path: '/files/:fileId/contents',
      summary: "Download a file's bytes (secret key)",
      tag,
      params: fileIdParams,
      response: z.string().meta({ format: 'binary', description: 'The bytes, with the content type of the file type' }),
      async handler(request) {
        const { fileId } = request.params;
        const contents = await commands.files.contents(fileId, request.auth);
        if (!contents) throw new NotFoundError(objectName, fileId);
        return new FileDownload(contents.bytes, CONTENT_TYPES[contents.type]!, `${fileId}.${contents.type}`);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/files',
      summary: 'List files, newest first',
      tag,
      query: listFilesQuery,
      response: listOf(fileSchema),
      async handler(request) {
        const { purpose, ...page } = request.query;
        const { list, hasMore } = await reader.list(collection, request.auth, page, { purpose });
        return { list: list.map((file) => withUrl(file, request)), hasMore };
      },
    }),
  ];
}
