import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Collection, Document, ListPage, ListQuery } from '../readstore/document-store.ts';

/** How a stored response looks at rest: AES-256-GCM over its JSON, bound to the record id. */
interface SealedResponse {
  sealed: 'aes-256-gcm';
  iv: string;
  tag: string;
  ciphertext: string;
}

type WithResponse = Document & { response?: unknown };

/**
 * The idempotency records' collection with every stored response encrypted at rest. Replayable
 * answers may carry secrets shown once (a webhook endpoint's signing secret) and card-related
 * data; encrypted with a key derived from the vault's, they are as safe as the vault itself. The
 * idempotency store reads and writes plain records through this and never sees the difference.
 */
export function sealedResponses<T extends WithResponse>(records: Collection<T>, key: Buffer): Collection<T> {
  if (key.length !== 32) throw new Error('The response sealing key must be 32 bytes');
  const seal = (doc: T): T => {
    if (doc.response === undefined) return doc;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(doc.id));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(doc.response), 'utf8'), cipher.final()]);
    const response: SealedResponse = {
      sealed: 'aes-256-gcm',
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      ciphertext: ciphertext.toString('base64'),
    };
    return { ...doc, response };
  };
  const open = (doc: T): T => {
    const response = doc.response as SealedResponse | undefined;
    if (response?.sealed !== 'aes-256-gcm') return doc;
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(response.iv, 'base64'));
    decipher.setAAD(Buffer.from(doc.id));
    decipher.setAuthTag(Buffer.from(response.tag, 'base64'));
    const json = Buffer.concat([
      decipher.update(Buffer.from(response.ciphertext, 'base64')),
      decipher.final(),
    ]).toString('utf8');
    return { ...doc, response: JSON.parse(json) as unknown };
  };
  return {
    name: records.name,
    async get(id) {
      const doc = await records.get(id);
      return doc && open(doc);
    },
    async getMany(ids) {
      return (await records.getMany(ids)).map(open);
    },
    async list(query: ListQuery): Promise<ListPage<T>> {
      const page = await records.list(query);
      return { ...page, list: page.list.map(open) };
    },
    insert: (doc) => records.insert(seal(doc)),
    put: (doc) => records.put(seal(doc)),
    delete: (id) => records.delete(id),
    count: (filter) => records.count(filter),
  };
}
