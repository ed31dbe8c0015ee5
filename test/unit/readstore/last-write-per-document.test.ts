import { expect } from 'chai';
import type { ProjectionWrite } from '../../../packages/readstore/document-store.ts';
import { lastWritePerDocument } from '../../../packages/readstore/sqlite-document-store.ts';

const put = (collection: string, id: string, position: number): ProjectionWrite => ({
  collection,
  op: 'put',
  doc: { id, created: position },
  position,
});

describe('lastWritePerDocument: a batch’s writes, one per document', () => {
  it('keeps the last write of each document, in the order of those last writes', () => {
    const writes: ProjectionWrite[] = [
      put('customers', 'a', 1),
      put('events', 'a', 1),
      put('customers', 'b', 2),
      put('customers', 'a', 3),
      { collection: 'customers', op: 'delete', id: 'b', position: 4 },
      put('customers', 'c', 5),
    ];
    expect(lastWritePerDocument(writes)).to.deep.equal([writes[1], writes[3], writes[4], writes[5]]);
  });

  it('returns a batch that writes each document once as it is', () => {
    const writes = [put('customers', 'a', 1), put('customers', 'b', 2), put('events', 'a', 2)];
    expect(lastWritePerDocument(writes)).to.equal(writes);
  });
});
