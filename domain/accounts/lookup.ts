import type { EventStore } from '../event-store/port';
import { emailStream, type EmailClaimedData } from './events';

/** The user an email belongs to, from its claim stream (authoritative, no read-model lag). */
export async function userIdForEmail(store: EventStore, email: string): Promise<string | null> {
  const [claim] = await store.readStream(emailStream(email));
  return claim ? (claim.data as EmailClaimedData).userId : null;
}
