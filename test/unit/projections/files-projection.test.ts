import { expect } from 'chai';
import type { FileEvent } from '../../../packages/domain/file/file-events.ts';
import { filesCollection, filesProjection } from '../../../projections/files-projection.ts';
import { seconds } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

describe('files projection', () => {
  const spec = projectionSpec(filesProjection);

  it('renders what an upload recorded, and nothing of its hash', async () => {
    await spec().given(
      inStream('file-file_1')<FileEvent>(
        {
          type: 'FileUploaded',
          data: { fileId: 'file_1', purpose: 'dispute_evidence', size: 1234, type: 'pdf', sha256: 'ab'.repeat(32) },
        },
        '2026-02-01T12:00:00.000Z',
      ),
    );
    const doc = (await spec().get(filesCollection, 'file_1'))!;
    expect(withoutInternals(doc)).to.deep.equal({
      id: 'file_1',
      created: seconds('2026-02-01T12:00:00.000Z'),
      objectType: 'file',
      purpose: 'dispute_evidence',
      size: 1234,
      type: 'pdf',
    });
  });
});
