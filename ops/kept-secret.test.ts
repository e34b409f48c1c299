import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataDirKey } from './data-dir-key';
import { keptSecret, randomSecret } from './kept-secret';
import { mediaUrlSecret } from './media-url-secret';

describe('a secret kept in the data folder', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lively-kept-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is made once, readable by its owner only, and read from the file after', () => {
    const folder = join(dir, 'data');
    let made = 0;
    const generate = () => `secret-${++made}\n`;
    expect(keptSecret(folder, 'a-secret', generate)).toBe('secret-1');
    expect(keptSecret(folder, 'a-secret', generate)).toBe('secret-1');
    expect(made).toBe(1);
    expect(statSync(join(folder, 'a-secret')).mode & 0o077).toBe(0);
  });

  it('loses a race to a process that kept one first, and leaves nothing aside', () => {
    const file = join(dir, 'a-secret');
    const secret = keptSecret(dir, 'a-secret', () => {
      writeFileSync(file, 'the-winner'); // another process links its secret in meanwhile
      return 'the-loser';
    });
    expect(secret).toBe('the-winner');
    expect(readdirSync(dir)).toEqual(['a-secret']);
  });

  it('makes 32 random bytes by default', () => {
    expect(Buffer.from(randomSecret(), 'base64url')).toHaveLength(32);
    expect(randomSecret()).not.toBe(randomSecret());
  });

  it('serves the media URL secret: MEDIA_URL_SECRET, else the kept one', () => {
    expect(mediaUrlSecret(dir, { MEDIA_URL_SECRET: 'configured-secret' })).toBe('configured-secret');
    const kept = mediaUrlSecret(dir, {});
    expect(kept.length).toBeGreaterThanOrEqual(40);
    expect(mediaUrlSecret(dir, {})).toBe(kept);
    expect(readFileSync(join(dir, 'media-url-secret'), 'utf8').trim()).toBe(kept);
  });

  it('serves 32-byte keys: the environment, else a kept one in hex; a bad one is refused', () => {
    const configured = 'ab'.repeat(32);
    expect(dataDirKey(dir, 'a-key', 'A_KEY', { A_KEY: configured })).toEqual(Buffer.from(configured, 'hex'));
    const kept = dataDirKey(dir, 'a-key', 'A_KEY', {});
    expect(kept).toHaveLength(32);
    expect(readFileSync(join(dir, 'a-key'), 'utf8')).toBe(kept.toString('hex'));
    expect(dataDirKey(dir, 'a-key', 'A_KEY', {})).toEqual(kept);
    expect(() => dataDirKey(dir, 'a-key', 'A_KEY', { A_KEY: 'short' })).toThrow('A_KEY must hold 32 bytes');
  });
});
