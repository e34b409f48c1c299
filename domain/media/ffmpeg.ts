import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * ffmpeg and ffprobe as child processes: spawned with an argument list (never a shell, so no
 * file name is ever parsed as a command), killed by an AbortSignal.
 */

/** Whether ffmpeg and ffprobe are on PATH: without them the server takes images only. */
export function ffmpegAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  return ['ffmpeg', 'ffprobe'].every((tool) => spawnSync(tool, ['-version'], { stdio: 'ignore', env }).status === 0);
}

export class ToolFailed extends Error {
  constructor(
    readonly tool: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`${tool} failed (exit ${exitCode}): ${stderr.slice(-500)}`);
    this.name = 'ToolFailed';
  }
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Each line of standard output as it comes (ffmpeg's -progress pipe:1). */
  onLine?: (line: string) => void;
}

/** Runs a tool to its end; resolves with its standard output, rejects with ToolFailed. */
export function runTool(tool: 'ffmpeg' | 'ffprobe', args: string[], options: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal });
    let stdout = '';
    let stderr = '';
    createInterface({ input: child.stdout }).on('line', (line) => {
      stdout += `${line}\n`;
      options.onLine?.(line);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8000);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new ToolFailed(tool, code, stderr))));
  });
}

export interface Probe {
  formatName: string;
  durationSeconds: number;
  video: { width: number; height: number; codec: string } | null;
  hasAudio: boolean;
}

/** What ffprobe reads of a file; rejects with ToolFailed when it cannot read it. */
export async function probe(file: string, signal?: AbortSignal): Promise<Probe> {
  const args = ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file];
  const output = JSON.parse(await runTool('ffprobe', args, { signal })) as {
    format?: { format_name?: string; duration?: string };
    streams?: Array<{ codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string }>;
  };
  const streams = output.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && s.width && s.height);
  const duration = Number(output.format?.duration ?? video?.duration ?? NaN);
  return {
    formatName: output.format?.format_name ?? '',
    durationSeconds: Number.isFinite(duration) ? duration : 0,
    video: video ? { width: video.width!, height: video.height!, codec: video.codec_name ?? '' } : null,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
  };
}
