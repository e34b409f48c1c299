import type { AccountDeletedData } from '../../domain/accounts/events';
import type { RecordedEvent } from '../../domain/event-store/port';
import type { ProjectionContext, Projector } from './projector';

type ApplyAll = (context: ProjectionContext, events: RecordedEvent[]) => Promise<void>;

/**
 * `apply` and `applyAll` for a read model that forgets a person (issue 23) but whose batch code
 * keys its rows by something else than the user: the batch is cut at each AccountDeleted, which
 * `forget` applies alone, after the rows of the events before it are written and before those
 * of the events after it are read.
 */
export function forgettingAccounts(
  applyRun: ApplyAll,
  forget: (context: ProjectionContext, userId: string) => Promise<unknown>,
): { apply: Projector['apply']; applyAll: ApplyAll } {
  const applyAll: ApplyAll = async (context, events) => {
    let run: RecordedEvent[] = [];
    for (const event of events) {
      if (event.type !== 'AccountDeleted') {
        run.push(event);
        continue;
      }
      if (run.length) await applyRun(context, run);
      run = [];
      await forget(context, (event.data as AccountDeletedData).userId);
    }
    if (run.length) await applyRun(context, run);
  };
  return { applyAll, apply: (context, event) => applyAll(context, [event]) };
}
