import { claimEmail } from '../accounts/email-claim';
import { userStream, type UserRegisteredData } from '../accounts/events';
import { userIdForEmail } from '../accounts/lookup';
import type { EventStore } from '../event-store/port';
import { DomainError } from '../shared/errors';
import { handleCommand, metadataFor, type CommandContext, type Decider } from '../shared/command-handler';
import { newId } from '../shared/ids';

/**
 * Finance staff: the admin role of a user, granted by `npm run ops -- create-admin`.
 * Kept on `staff-<userId>` so granting never races with the user's own account stream;
 * the users read model turns it into `role = 'admin'`.
 */

export const staffStream = (userId: string) => `staff-${userId}`;

export interface StaffRoleGrantedData {
  userId: string;
  role: 'admin';
  grantedBy: string | null;
  grantedAt: string;
}

export type StaffEvent = { type: 'StaffRoleGranted'; data: StaffRoleGrantedData };
type StaffCommand = { type: 'GrantStaffRole'; userId: string; grantedBy: string | null; now: Date };

export const staffDecider: Decider<StaffCommand, { isAdmin: boolean }, StaffEvent> = {
  initialState: { isAdmin: false },
  evolve: (state, event) => (event.type === 'StaffRoleGranted' ? { isAdmin: true } : state),
  decide: (command, state) =>
    state.isAdmin
      ? []
      : [
          {
            type: 'StaffRoleGranted',
            data: {
              userId: command.userId,
              role: 'admin',
              grantedBy: command.grantedBy,
              grantedAt: command.now.toISOString(),
            },
          },
        ],
};

/** Makes a user finance staff; granting twice writes nothing. */
export async function grantStaffRole(store: EventStore, userId: string, context: CommandContext) {
  return handleCommand(
    store,
    staffStream(userId),
    staffDecider,
    { type: 'GrantStaffRole', userId, grantedBy: context.actorId, now: context.now },
    context,
  );
}

/**
 * `create-admin`: finance staff for an email. An existing account gets the admin role; an
 * unknown email gets a new account (no card, no membership) with the given password hash,
 * claimed like a sign-up claims it (with the claim stream's revision), then the role.
 */
export async function ensureStaffAccount(
  store: EventStore,
  input: { email: string; passwordHash: () => Promise<string>; firstName?: string; lastName?: string },
  context: CommandContext,
): Promise<{ userId: string; created: boolean }> {
  const email = input.email.trim().toLowerCase();
  let userId = await userIdForEmail(store, email);
  let created = false;
  if (!userId) {
    const newUserId = newId();
    const passwordHash = await input.passwordHash();
    const metadata = metadataFor(context);
    try {
      await claimEmail(store, email, newUserId, context);
      const registered: UserRegisteredData = {
        userId: newUserId,
        email,
        firstName: input.firstName ?? 'Finance',
        lastName: input.lastName ?? 'Staff',
        passwordHash,
        gatewayCustomerId: '',
        cardLast4: '',
        registeredAt: context.now.toISOString(),
      };
      await store.append(userStream(newUserId), [{ type: 'UserRegistered', data: registered, metadata }], {
        expectedRevision: 'no_stream',
      });
      userId = newUserId;
      created = true;
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
      userId = await userIdForEmail(store, email); // someone claimed it meanwhile: make them staff
      if (!userId) throw error;
    }
  }
  await grantStaffRole(store, userId, context);
  return { userId, created };
}
