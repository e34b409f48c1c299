import { randomUUID } from 'node:crypto';
import type { AccountExport } from '../contracts/account';
import type { EventStore, RecordedEvent } from '../event-store/port';
import type { MediaStorage } from '../media/storage';
import type { CommandContext } from '../shared/command-handler';
import { metadataFor } from '../shared/command-handler';
import { deterministicId } from '../shared/ids';
import type { ProcessManager } from '../shared/process-manager';
import { accountExportStream, type AccountExportReadyData, type AccountExportRequestedData } from './events';

/**
 * A member's copy of their data, for an account too large to answer at once (issue 23): the
 * request is an event, and a process (durable: it resumes from its checkpoint after a crash)
 * writes the file to storage, then AccountExportReady, which the notifications read model
 * turns into a link. Files live under the member's own prefix, so only they can fetch one and
 * deleting the account deletes them all.
 */
export const exportsPrefix = (userId: string) => `exports/${userId}/`;
export const exportKey = (userId: string, exportId: string) => `${exportsPrefix(userId)}${exportId}.json`;

export async function requestAccountExport(store: EventStore, userId: string, context: CommandContext) {
  const exportId = randomUUID();
  const data: AccountExportRequestedData = { exportId, userId, at: context.now.toISOString() };
  await store.append(
    accountExportStream(exportId),
    [{ type: 'AccountExportRequested', data, metadata: metadataFor(context) }],
    { expectedRevision: 'no_stream' },
  );
  return { exportId };
}

export interface ExportDeps {
  /** Everything about the member, as the export file holds it (no profile: the account is gone). */
  build(userId: string, now: Date): Promise<AccountExport>;
  storage: Pick<MediaStorage, 'put'>;
}

export function accountExportProcess(deps: ExportDeps): ProcessManager {
  return {
    name: 'account-export',
    eventTypes: ['AccountExportRequested'],
    async handle(event: RecordedEvent, { store, now }) {
      const { exportId, userId } = event.data as AccountExportRequestedData;
      const data = await deps.build(userId, now);
      if (data.profile === null) return; // deleted meanwhile: there is nobody to give it to
      const body = Buffer.from(JSON.stringify(data, null, 2));
      await deps.storage.put(exportKey(userId, exportId), body, 'application/json');
      const ready: AccountExportReadyData = { exportId, userId, bytes: body.length, at: now.toISOString() };
      // Written once: the id derives from the request, so a replay after a crash appends nothing new.
      await store.append(
        accountExportStream(exportId),
        [
          {
            eventId: deterministicId('account-export-ready', event.eventId),
            type: 'AccountExportReady',
            data: ready,
            metadata: { correlationId: event.metadata.correlationId ?? event.eventId, causationId: event.eventId },
          },
        ],
        { expectedRevision: 'any' },
      );
    },
  };
}
