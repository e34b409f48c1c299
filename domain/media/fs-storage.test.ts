import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFsStorage } from './fs-storage';
import { describeStorageContract } from './testing/storage-contract';

let root = '';

describeStorageContract(
  'filesystem',
  async () => {
    root = await mkdtemp(join(tmpdir(), 'lively-media-'));
    return createFsStorage(join(root, 'media'));
  },
  () => rm(root, { recursive: true, force: true }),
);

describe('filesystem media storage', () => {
  it('keeps nothing outside its root and no temporary files after writes', async () => {
    const base = await mkdtemp(join(tmpdir(), 'lively-media-'));
    try {
      const storage = createFsStorage(join(base, 'media'));
      await storage.put('media/m1/original', Buffer.from('hello'), 'image/jpeg');
      expect(await readdir(base)).toEqual(['media']);
      expect(await readdir(join(base, 'media', '.incoming'))).toEqual([]);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
