import type { EventStore } from '../event-store/port';
import { loadState } from '../shared/command-handler';
import { emailClaimDecider } from './email-claim';
import { emailStream } from './events';

/**
 * The user an email belongs to, from its claim stream (authoritative, no read-model lag); null
 * when it was never claimed or its claim was released.
 */
export async function userIdForEmail(store: EventStore, email: string): Promise<string | null> {
  const { state } = await loadState(store, emailStream(email), emailClaimDecider);
  return state.owner;
}
