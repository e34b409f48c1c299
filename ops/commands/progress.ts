import cliProgress from 'cli-progress';
import type { RebuildProgress } from '../../projections/engine/rebuild';
import { duration, thousands } from './format';

/** A progress bar per rebuild: events read of the log's total, events/s and ETA. */
export function rebuildProgressBar(stream: NodeJS.WriteStream = process.stderr) {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: '{projection} [{bar}] {percentage}% | {value}/{total} events | {rate} ev/s | ETA {etaText} | {phase}',
      hideCursor: true,
      noTTYOutput: true,
      notTTYSchedule: 2000,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(progress: RebuildProgress) {
      const payload = {
        projection: progress.projection,
        rate: thousands(progress.eventsPerSecond),
        etaText: duration(progress.etaSeconds),
        phase: progress.phase,
      };
      const total = Math.max(progress.eventsTotal, progress.eventsRead, 1);
      if (!started) {
        bar.start(total, progress.eventsRead, payload);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(progress.eventsRead, payload);
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
