import type { Projector } from '../../projections/engine/projector';
import {
  rebuildProjection,
  rebuildProjections,
  type RebuildProgress,
  type RebuildResult,
} from '../../projections/engine/rebuild';
import { allProjectors } from '../../projections/engine/registry';
import type { Connection, OpsCommand } from './command';
import { duration, thousands } from './format';
import { rebuildProgressBar } from './progress';
import { compareSnapshots, snapshotReadModel, type Verification } from './verify-tables';

export interface RebuildReport {
  projection: string;
  events: number;
  seconds: number;
  verification: Verification;
}

/** Blue/green rebuild of one read model, then the check that the new tables equal the old. */
export async function rebuildAndVerify(
  { store, db }: Pick<Connection, 'store' | 'db'>,
  projector: Projector,
  onProgress?: (progress: RebuildProgress) => void,
): Promise<RebuildReport> {
  const before = await snapshotReadModel(db, projector);
  const { events, seconds } = await rebuildProjection(store, db, projector, onProgress);
  const after = await snapshotReadModel(db, projector);
  return {
    projection: projector.name,
    events,
    seconds,
    verification: await compareSnapshots(store, projector, before, after),
  };
}

/** `all` (or nothing): every registered read model; otherwise the named one. */
export function selectProjectors(name: string | undefined, projectors: Projector[] = allProjectors): Projector[] {
  if (!name || name === 'all') return projectors;
  const found = projectors.find((p) => p.name === name);
  if (!found)
    throw new Error(`No projection named "${name}". Known: ${projectors.map((p) => p.name).join(', ') || '(none)'}`);
  return [found];
}

/**
 * Rebuilds the read models in one pass over the log (one progress bar when `bars`), then
 * checks each against its old tables. `seconds` counts the rebuild, not the verification.
 */
export async function rebuildAll(
  { store, db }: Pick<Connection, 'store' | 'db'>,
  projectors: Projector[],
  out: (line: string) => void,
  options: {
    bars?: boolean;
    /** Runs the rebuild itself (not the verification around it): a benchmark measures it so. */
    around?: (rebuild: () => Promise<RebuildResult>) => Promise<RebuildResult>;
  } = {},
): Promise<RebuildResult & { mismatches: number; verified: number }> {
  const before = [];
  for (const projector of projectors) before.push(await snapshotReadModel(db, projector));
  const bar = options.bars ? rebuildProgressBar() : null;
  let rebuilt: RebuildResult;
  try {
    const rebuild = () =>
      rebuildProjections(store, db, projectors, bar ? (progress) => bar.update(progress) : undefined);
    rebuilt = await (options.around ? options.around(rebuild) : rebuild());
  } finally {
    bar?.stop();
  }
  let mismatches = 0;
  let verified = 0;
  for (const [i, projector] of projectors.entries()) {
    const verification = await compareSnapshots(store, projector, before[i], await snapshotReadModel(db, projector));
    if (verification.result === 'different') mismatches++;
    if (verification.result === 'equal') verified++;
    out(`${projector.name}: ${describeVerification(verification)}`);
  }
  const rate = rebuilt.seconds > 0 ? rebuilt.events / rebuilt.seconds : 0;
  out(
    `${projectors.length} read model(s) rebuilt in one pass over the log, applying ${thousands(rebuilt.events)} events in ${duration(rebuilt.seconds)} (${thousands(rate)} events/s)`,
  );
  return { ...rebuilt, mismatches, verified };
}

export function describeVerification(verification: Verification): string {
  switch (verification.result) {
    case 'equal':
      return `verified: rebuilt tables equal the old ones (${
        Object.entries(verification.tables)
          .map(([t, d]) => `${t} ${thousands(d.rows)} rows`)
          .join(', ') || 'no tables'
      })`;
    case 'different':
      return `MISMATCH: ${verification.differences.map((d) => `${d.table} (old ${d.before.rows} rows, new ${d.after.rows} rows, contents differ)`).join('; ')}`;
    case 'skipped':
      return `not verified: ${verification.reason}`;
  }
}

export const rebuildCommand: OpsCommand = {
  name: 'rebuild',
  args: '[projection|all]',
  summary: 'Rebuild read models blue/green from the event log while the API keeps serving',
  help: `Builds a fresh copy of the read model beside the live tables from the whole event log,
catches up, switches it in and drops the old copy; a running API keeps answering from the old
tables meanwhile. Shows a progress bar (events/s, ETA). Afterwards the new tables are compared
with the old ones: when no event for that projection arrived during the rebuild they must be
equal, otherwise the comparison is skipped. Exit code 1 on any mismatch.
Without an argument, or with "all", rebuilds every read model in one pass over the log
(each batch applied to all of them side by side); each switches in as soon as its copy is
complete, one at a time, while the others are still being built.`,
  async run(args, context) {
    const projectors = selectProjectors(args.find((a) => !a.startsWith('--')));
    if (projectors.length === 0) {
      context.out('No read models are registered.');
      return 0;
    }
    const connection = await context.connect();
    const { mismatches } = await rebuildAll(connection, projectors, context.out, { bars: true });
    return mismatches ? 1 : 0;
  },
};
