import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext, type Decider } from '../shared/command-handler';

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
    state.isAdmin ? [] : [{ type: 'StaffRoleGranted', data: { userId: command.userId, role: 'admin', grantedBy: command.grantedBy, grantedAt: command.now.toISOString() } }],
};

/** Makes a user finance staff; granting twice writes nothing. */
export async function grantStaffRole(store: EventStore, userId: string, context: CommandContext) {
  return handleCommand(store, staffStream(userId), staffDecider, { type: 'GrantStaffRole', userId, grantedBy: context.actorId, now: context.now }, context);
}
