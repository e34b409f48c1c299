import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { probe } from '../../domain/media/ffmpeg';
import { generatedImage, generatedVideo, videosPossible } from './media';

/** The demo's generated media (issue 18): the same seed makes the same file, of the size asked. */
jest.setTimeout(60_000);

describe('seed media', () => {
  it('draws the same picture for the same seed, a different one for another', async () => {
    const first = await generatedImage(320, 320, 3, 'LR');
    expect((await generatedImage(320, 320, 3, 'LR')).equals(first)).toBe(true);
    expect((await generatedImage(320, 320, 4, 'LR')).equals(first)).toBe(false);
    const cover = await sharp(await generatedImage(1280, 427, 5, 'Nora Stone')).metadata();
    expect([cover.format, cover.width, cover.height]).toEqual(['jpeg', 1280, 427]);
  });

  it('makes a 640x360 clip with sound of the length asked', async () => {
    expect(videosPossible()).toBe(true); // the CI image installs ffmpeg (.ci/run)
    const dir = await mkdtemp(path.join(tmpdir(), 'lively-seed-media-'));
    try {
      const file = path.join(dir, 'clip.mp4');
      await writeFile(file, await generatedVideo(1, 3));
      const clip = await probe(file);
      expect([clip.video?.width, clip.video?.height, clip.hasAudio]).toEqual([640, 360, true]);
      expect(clip.durationSeconds).toBeCloseTo(3, 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
