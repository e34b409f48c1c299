import { keptSecret, randomSecret } from './kept-secret';

/**
 * The secret that signs media URLs (domain/media/signed-url.ts) and derives the watermark's:
 * MEDIA_URL_SECRET when set (several API processes must share it), else one generated on first
 * start and kept in the data folder, readable by its owner only.
 */
export function mediaUrlSecret(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.MEDIA_URL_SECRET || keptSecret(dataDir, 'media-url-secret', randomSecret);
}
