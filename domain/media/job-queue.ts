import PgBoss from 'pg-boss';
import { fail, processMedia, type ProcessingDeps } from './processing';
import type { MediaProgress } from './progress';

/**
 * Processing jobs on pg-boss, in its own schema of the same PostgreSQL: durable (a job is a
 * row, written before the upload is answered), retried with back-off, fetched with SKIP LOCKED
 * so each job has one worker, at most `concurrency` at once in a process. A job interrupted by
 * a shutdown is handed back at once (it runs again after the restart); one whose process died
 * is handed back by pg-boss's supervisor when it expires.
 */

export const MEDIA_QUEUE = 'media-processing';
export const JOB_SCHEMA = 'pgboss';

export interface MediaJobs {
  /** Queues processing of an uploaded item; queuing it twice queues it once. */
  enqueue(mediaId: string, options: { expireInSeconds: number }): Promise<void>;
}

export interface MediaProcessor {
  jobs: MediaJobs;
  stop(): Promise<void>;
}

export interface ProcessorOptions {
  databaseUrl: string;
  deps: ProcessingDeps;
  progress: MediaProgress;
  concurrency: number;
  /** How often an idle worker looks for work, and how often expired jobs are handed back. */
  pollMs?: number;
  superviseSeconds?: number;
  retryDelaySeconds?: number;
  log: (message: string, fields?: Record<string, unknown>) => void;
}

interface JobData {
  mediaId: string;
}

const GIVE_UP = 'Processing failed after several attempts; please upload the file again';

export async function startMediaProcessor(options: ProcessorOptions): Promise<MediaProcessor> {
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    schema: JOB_SCHEMA,
    max: Math.max(2, options.concurrency + 1),
    application_name: 'lively-media-jobs',
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: options.superviseSeconds ?? 60,
  });
  boss.on('error', (error: Error) => options.log('media job queue error', { error: error.message }));
  await boss.start();
  if (!(await boss.getQueue(MEDIA_QUEUE)))
    await boss
      .createQueue(MEDIA_QUEUE, {
        name: MEDIA_QUEUE,
        retryLimit: 3,
        retryDelay: options.retryDelaySeconds ?? 5,
        retryBackoff: true,
      })
      .catch(async (error) => {
        if (!(await boss.getQueue(MEDIA_QUEUE))) throw error; // another process made it first
      });

  const stopping = new AbortController();
  const pollMs = options.pollMs ?? 1000;
  const idle = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stopping.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, pollMs);
      stopping.signal.addEventListener('abort', done, { once: true });
    });

  async function runJob(job: PgBoss.JobWithMetadata<JobData>): Promise<void> {
    const { mediaId } = job.data;
    let last = -1;
    const onProgress = (percent: number) => {
      if (percent < last + 5 && percent < 100) return;
      last = percent;
      void options.progress.set(mediaId, percent).catch(() => undefined);
    };
    try {
      await processMedia(options.deps, mediaId, { signal: stopping.signal, onProgress });
      await options.progress.clear(mediaId);
      await boss.complete(MEDIA_QUEUE, job.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (stopping.signal.aborted) {
        options.log('media job interrupted by shutdown; it runs again after restart', { mediaId });
        await boss.fail(MEDIA_QUEUE, job.id, { message: 'interrupted by shutdown' });
      } else if (job.retryCount >= job.retryLimit) {
        options.log('media job failed for good', { mediaId, error: message });
        await fail(options.deps, mediaId, GIVE_UP);
        await boss.fail(MEDIA_QUEUE, job.id, { message });
      } else {
        options.log('media job failed; it will be retried', { mediaId, error: message, attempt: job.retryCount });
        await boss.fail(MEDIA_QUEUE, job.id, { message });
      }
    }
  }

  async function worker(): Promise<void> {
    while (!stopping.signal.aborted) {
      try {
        const [job] = await boss.fetch<JobData>(MEDIA_QUEUE, { batchSize: 1, includeMetadata: true });
        if (job) await runJob(job);
        else await idle();
      } catch (error) {
        if (stopping.signal.aborted) break;
        options.log('media worker error', { error: error instanceof Error ? error.message : String(error) });
        await idle();
      }
    }
  }

  const workers = Array.from({ length: options.concurrency }, worker);
  return {
    jobs: {
      async enqueue(mediaId, { expireInSeconds }) {
        // The media id is the job's id: a second send of the same item is ignored.
        await boss.send(MEDIA_QUEUE, { mediaId }, { id: mediaId, expireInSeconds });
      },
    },
    async stop() {
      stopping.abort();
      await Promise.all(workers);
      await boss.stop({ graceful: false, close: true, wait: true });
    },
  };
}
