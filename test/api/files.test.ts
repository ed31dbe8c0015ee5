import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { disputedCharge } from '../support/disputes.ts';
import { createOtherAccount, type ApiError, type Page } from '../support/payments.ts';
import { sendRaw } from '../support/raw-http.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

type FileObject = {
  id: string;
  created: number;
  objectType: 'file';
  purpose: string;
  size: number;
  type: string;
  url: string;
};

const MAX_FILE_BYTES = 4096;

/** Real file contents: a tiny PDF, a 1×1 PNG, a GIF header, and text that only a name can call a PDF. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const TEXT = Buffer.from('just some text pretending to be a pdf');

/** A multipart upload as client libraries send it (fetch builds the boundary). */
function uploadForm(bytes: Buffer, filename: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([bytes]), filename);
  return form;
}

describe('file uploads over HTTP', function () {
  this.timeout(90_000);
  const { api, service, keys } = useService({
    env: {
      FILE_MAX_BYTES: String(MAX_FILE_BYTES),
      NETWORK_DISPUTE_DELAY_MS: '300',
      NETWORK_DISPUTE_DECISION_DELAY_MS: '60000',
    },
  });

  const upload = async (
    body: FormData | string,
    options: { query?: string; key?: string; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: FileObject & ApiError }> => {
    const response = await fetch(`${service.baseUrl}/files${options.query ?? ''}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${options.key ?? keys.testSecretKey}:`).toString('base64')}`,
        ...options.headers,
      },
      body,
    });
    return { status: response.status, body: (await response.json()) as FileObject & ApiError };
  };
  const fileIds = async (): Promise<string[]> =>
    (await api.get<Page<FileObject>>('/files', { query: { limit: '100' } })).body.list.map((file) => file.id);

  it('stores an upload and answers the file object; the download needs the secret key and gives the bytes back', async () => {
    const created = await upload(uploadForm(PDF, 'receipt.pdf', { purpose: 'dispute_evidence' }));
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const file = created.body;
    expect(file.id).to.match(/^file_[A-Za-z0-9]{24}$/);
    expect(file).to.include({ objectType: 'file', purpose: 'dispute_evidence', size: PDF.length, type: 'pdf' });
    expect(file.url).to.equal(`${service.baseUrl}/files/${file.id}/contents`);
    expect(Math.abs(file.created - Date.now() / 1000)).to.be.below(60);
    expect((await api.get<FileObject>(`/files/${file.id}`)).body).to.deep.equal(file);

    const download = await fetch(file.url, {
      headers: { authorization: `Basic ${Buffer.from(`${keys.testSecretKey}:`).toString('base64')}` },
    });
    expect(download.status).to.equal(200);
    expect(download.headers.get('content-type')).to.equal('application/pdf');
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).to.equal(true);
    expect((await fetch(file.url)).status).to.equal(401);
    const publicKey = `Basic ${Buffer.from(`${keys.testPublicKey}:`).toString('base64')}`;
    expect((await fetch(file.url, { headers: { authorization: publicKey } })).status).to.equal(401);
  });

  it('records the upload as an event holding what the file is, never its bytes', async () => {
    const file = (await upload(uploadForm(PNG, 'signature.png', { purpose: 'customer_signature' }))).body;
    const shown = await runCli(['streams', 'show', file.id, '--json'], service.dataDir);
    expect(shown.code, shown.stderr).to.equal(0);
    const [event, ...more] = shown.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: object });
    expect(more).to.deep.equal([]);
    expect(event!.type).to.equal('FileUploaded');
    expect(Object.keys(event!.data).sort()).to.deep.equal(['fileId', 'purpose', 'sha256', 'size', 'type']);
    expect(shown.stdout).not.to.contain(PNG.toString('base64').slice(0, 24));
  });

  it('takes purpose from the query string too, and refuses it missing or given twice differently', async () => {
    const fromQuery = await upload(uploadForm(GIF, 'photo.gif'), { query: '?purpose=dispute_evidence' });
    expect(fromQuery.status, JSON.stringify(fromQuery.body)).to.equal(200);
    expect(fromQuery.body).to.include({ purpose: 'dispute_evidence', type: 'gif' });
    const missing = await upload(uploadForm(PDF, 'a.pdf'));
    expect(missing.status).to.equal(400);
    expect(missing.body.error.message).to.contain('purpose');
    const twice = await upload(uploadForm(PDF, 'a.pdf', { purpose: 'dispute_evidence' }), {
      query: '?purpose=identity_document',
    });
    expect(twice.status).to.equal(400);
    const unknown = await upload(uploadForm(PDF, 'a.pdf', { purpose: 'selfie' }));
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.message).to.match(/^Invalid parameter: purpose must be one of/);
  });

  it('tells the type by the content; content no sniffer identifies takes the type its name gives; only the types of the purpose', async () => {
    const before = await fileIds();
    const zip = Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(60)]);
    const zipNamedPdf = await upload(uploadForm(zip, 'invoice.pdf', { purpose: 'dispute_evidence' }));
    expect(zipNamedPdf.status).to.equal(400);
    expect(zipNamedPdf.body.error.message).to.equal(
      'Invalid parameter: file must be one of pdf, png, jpg, gif for purpose dispute_evidence (told by its content, which is zip)',
    );
    const pdfSignature = await upload(uploadForm(PDF, 'signature.png', { purpose: 'customer_signature' }));
    expect(pdfSignature.status).to.equal(400);
    expect(pdfSignature.body.error.message).to.contain('which is pdf');
    const textNamedTxt = await upload(uploadForm(TEXT, 'notes.txt', { purpose: 'dispute_evidence' }));
    expect(textNamedTxt.status).to.equal(400);
    expect(textNamedTxt.body.error.message).to.equal(
      'Invalid parameter: file must be one of pdf, png, jpg, gif for purpose dispute_evidence ' +
        '(its content is of no type the service recognises, and its file name gives none of these)',
    );
    const textSignatureNamedPdf = await upload(uploadForm(TEXT, 'sign.pdf', { purpose: 'customer_signature' }));
    expect(textSignatureNamedPdf.status).to.equal(400);
    expect(await fileIds()).to.deep.equal(before);

    const renamed = await upload(uploadForm(PNG, 'scan.pdf', { purpose: 'dispute_evidence' }));
    expect(renamed.body).to.include({ type: 'png' });
    const textNamedPdf = await upload(uploadForm(TEXT, 'invoice.PDF', { purpose: 'dispute_evidence' }));
    expect(textNamedPdf.status, JSON.stringify(textNamedPdf.body)).to.equal(200);
    expect(textNamedPdf.body).to.include({ type: 'pdf', size: TEXT.length });
    const textNamedJpeg = await upload(uploadForm(TEXT, 'photo.jpeg', { purpose: 'customer_signature' }));
    expect(textNamedJpeg.body).to.include({ type: 'jpg' });
  });

  it('serves every download as an attachment that browsers may not sniff', async () => {
    const text = (await upload(uploadForm(TEXT, 'invoice.pdf', { purpose: 'dispute_evidence' }))).body;
    const image = (await upload(uploadForm(PNG, 'scan.png', { purpose: 'dispute_evidence' }))).body;
    for (const [file, contentType, bytes] of [
      [text, 'application/pdf', TEXT],
      [image, 'image/png', PNG],
    ] as const) {
      const download = await fetch(file.url, {
        headers: { authorization: `Basic ${Buffer.from(`${keys.testSecretKey}:`).toString('base64')}` },
      });
      expect(download.status).to.equal(200);
      expect(download.headers.get('content-type')).to.equal(contentType);
      expect(download.headers.get('content-disposition')).to.equal(`attachment; filename="${file.id}.${file.type}"`);
      expect(download.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).to.equal(true);
    }
  });

  it(`refuses a file over ${MAX_FILE_BYTES} bytes with 413, a body that is not multipart with 415, and a missing or extra file with 400`, async () => {
    const before = await fileIds();
    const big = Buffer.concat([PDF, Buffer.alloc(MAX_FILE_BYTES)]);
    const tooLarge = await upload(uploadForm(big, 'big.pdf', { purpose: 'dispute_evidence' }));
    expect(tooLarge.status).to.equal(413);
    expect(tooLarge.body.error.message).to.equal(
      `Invalid request: the file exceeds the maximum size of ${MAX_FILE_BYTES} bytes`,
    );
    const json = await api.post<ApiError>('/files', { json: { purpose: 'dispute_evidence', file: 'JVBERi0=' } });
    expect(json.status).to.equal(415);
    const noFile = new FormData();
    noFile.append('purpose', 'dispute_evidence');
    const missing = await upload(noFile);
    expect(missing.status).to.equal(400);
    expect(missing.body.error.message).to.contain('file');
    const twoFiles = uploadForm(PDF, 'a.pdf', { purpose: 'dispute_evidence' });
    twoFiles.append('file', new Blob([PDF]), 'b.pdf');
    expect((await upload(twoFiles)).status).to.equal(400);
    const otherName = new FormData();
    otherName.append('purpose', 'dispute_evidence');
    otherName.append('document', new Blob([PDF]), 'a.pdf');
    const wrongPart = await upload(otherName);
    expect(wrongPart.status).to.equal(400);
    expect(wrongPart.body.error.message).to.equal('Unknown parameter: document');
    const broken = await upload('--x\r\nnot a part', {
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(broken.status).to.be.within(400, 499);
    expect(await fileIds()).to.deep.equal(before);
  });

  it('answers a body cut before its closing boundary with 400, from any key, and keeps serving', async () => {
    const before = await fileIds();
    // A form whose closing boundary never comes.
    const cut = Buffer.from(
      '--XX\r\nContent-Disposition: form-data; name="purpose"\r\n\r\ndispute_evidence\r\n' +
        '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nPNG\r\n',
    );
    for (const key of [keys.testSecretKey, keys.testPublicKey]) {
      const answer = await sendRaw(
        service.baseUrl,
        {
          method: 'POST',
          path: '/files',
          headers: {
            Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
            'Content-Type': 'multipart/form-data; boundary=XX',
          },
          body: cut,
        },
        10_000,
      );
      expect(answer.answered && answer.status, JSON.stringify(answer)).to.equal(key === keys.testSecretKey ? 400 : 401);
      expect(answer.answered && (JSON.parse(answer.body) as ApiError).error.type).to.equal('invalid_request');
      expect((await fetch(`${service.baseUrl}/health`)).status).to.equal(200);
    }
    expect(await fileIds()).to.deep.equal(before);
  });

  it('refuses a public key with 401 before reading the body', async () => {
    // The body never arrives in full: only an answer that does not wait for it comes back in time.
    const answer = await sendRaw(
      service.baseUrl,
      {
        method: 'POST',
        path: '/files',
        headers: {
          Authorization: `Basic ${Buffer.from(`${keys.testPublicKey}:`).toString('base64')}`,
          'Content-Type': 'multipart/form-data; boundary=XX',
        },
        body: Buffer.from('--XX\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF'),
        contentLength: 'larger',
      },
      5000,
    );
    expect(answer.answered && answer.status, JSON.stringify(answer)).to.equal(401);
    expect(answer.answered && (JSON.parse(answer.body) as ApiError).error.message).to.equal(
      'This endpoint requires a secret key; a public key was used',
    );
  });

  it('replays an upload under the same Idempotency-Key, and refuses the key for other bytes', async () => {
    const key = randomUUID();
    const headers = { 'Idempotency-Key': key };
    const first = await upload(uploadForm(PDF, 'a.pdf', { purpose: 'dispute_evidence' }), { headers });
    const again = await upload(uploadForm(PDF, 'a.pdf', { purpose: 'dispute_evidence' }), { headers });
    expect(again.body.id).to.equal(first.body.id);
    const other = await upload(uploadForm(PNG, 'a.png', { purpose: 'dispute_evidence' }), { headers });
    expect(other.status).to.equal(400);
    expect(other.body.error.message).to.equal('Idempotent key used for request with different parameters.');
  });

  it('lists files newest first with the list parameters and a purpose filter', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await upload(uploadForm(PDF, 'id.pdf', { purpose: 'identity_document' }))).body.id);
    const listed = (await api.get<Page<FileObject>>('/files', { query: { purpose: 'identity_document' } })).body;
    expect(listed.list.map((file) => file.id)).to.deep.equal([...ids].reverse());
    expect(listed.list.every((file) => file.url.endsWith(`/files/${file.id}/contents`))).to.equal(true);
    const page = (
      await api.get<Page<FileObject>>('/files', {
        query: { purpose: 'identity_document', limit: '1', startingAfterId: ids[2]! },
      })
    ).body;
    expect(page).to.deep.equal({ list: [listed.list[1]], hasMore: true });
  });

  it("keeps files to their account and mode, and lets dispute evidence name only the account's own files", async () => {
    const own = (await upload(uploadForm(PDF, 'receipt.pdf', { purpose: 'dispute_evidence' }))).body;
    const other = await createOtherAccount(api, service.dataDir, 'Other shop');
    expect((await other.api.get(`/files/${own.id}`)).status).to.equal(404);
    expect((await other.api.get(`/files/${own.id}/contents`)).status).to.equal(404);
    const live = api.withKey(keys.liveSecretKey);
    expect((await live.get(`/files/${own.id}`)).status).to.equal(404);
    const foreign = (
      await upload(uploadForm(PDF, 'theirs.pdf', { purpose: 'dispute_evidence' }), { key: other.keys.testSecretKey })
    ).body;

    const charge = await disputedCharge(api);
    const refused = await api.post<ApiError>(`/disputes/${charge.dispute.id}`, {
      form: { 'evidence[receipt]': foreign.id },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.error.message).to.equal(
      `Invalid parameter: evidence[receipt] '${foreign.id}' is not an uploaded file`,
    );
    const accepted = await api.post<{ evidence?: Record<string, string> }>(`/disputes/${charge.dispute.id}`, {
      form: { 'evidence[receipt]': own.id, 'evidence[productDescription]': 'A lamp' },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
  });
});
