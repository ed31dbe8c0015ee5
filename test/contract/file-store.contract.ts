import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { randomBase62 } from '../../packages/ids/object-id.ts';
import type { FileStore } from '../../packages/files/file-store.ts';

/** What every FileStore adapter must do (`packages/files/file-store.ts`). */
export function describeFileStoreContract(name: string, open: () => Promise<FileStore>): void {
  describe(`FileStore contract: ${name}`, function () {
    this.timeout(30_000);
    let store: FileStore;
    const newFileId = () => `file_${randomBase62()}`;

    before(async () => {
      store = await open();
    });
    after(async () => {
      await store.close();
    });

    it('reads back exactly the bytes stored, binary included', async () => {
      const fileId = newFileId();
      const bytes = randomBytes(300_000);
      await store.save(fileId, bytes);
      const read = await store.read(fileId);
      expect(read).to.be.instanceOf(Buffer);
      expect(read!.equals(bytes)).to.equal(true);
    });

    it('keeps files apart and answers null for a file it never stored', async () => {
      const [first, second] = [newFileId(), newFileId()];
      await store.save(first, Buffer.from('first'));
      await store.save(second, Buffer.from('second'));
      expect((await store.read(first))!.toString()).to.equal('first');
      expect((await store.read(second))!.toString()).to.equal('second');
      expect(await store.read(newFileId())).to.equal(null);
    });

    it('stores an empty file as an empty file, not as a missing one', async () => {
      const fileId = newFileId();
      await store.save(fileId, Buffer.alloc(0));
      expect((await store.read(fileId))!.length).to.equal(0);
    });

    it('replaces the bytes when the same id is stored again', async () => {
      const fileId = newFileId();
      await store.save(fileId, Buffer.from('old version'));
      await store.save(fileId, Buffer.from('new'));
      expect((await store.read(fileId))!.toString()).to.equal('new');
    });

    it('never treats text that is not a file id as a name: no path escapes, nothing read', async () => {
      for (const name of ['../events.sqlite', 'file_../../x', '', 'file_a/b']) {
        expect(await store.read(name), name).to.equal(null);
        let refused = false;
        await store.save(name, Buffer.from('x')).catch(() => (refused = true));
        expect(refused, name).to.equal(true);
      }
    });

    it('serves many concurrent saves and reads of different files', async () => {
      const files = Array.from({ length: 20 }, (_, index) => ({ id: newFileId(), bytes: randomBytes(1000 + index) }));
      await Promise.all(files.map((file) => store.save(file.id, file.bytes)));
      const read = await Promise.all(files.map((file) => store.read(file.id)));
      read.forEach((bytes, index) => expect(bytes!.equals(files[index]!.bytes)).to.equal(true));
    });
  });
}
