import type { Knex } from 'knex';
import type {
  AccountLockedData,
  AgeVerifiedData,
  LoginFailedData,
  LoginSucceededData,
  PasswordChangedData,
  PasswordResetRequestedData,
  UserDeactivatedData,
  UserRegisteredData,
} from '../domain/accounts/events';
import type { RecordedEvent } from '../domain/event-store/port';
import type { MembershipActivatedData } from '../domain/membership/events';
import type { PaymentCardUpdatedData } from '../domain/membership/card-on-file';
import type {
  MembershipCanceledData,
  MembershipExpiredData,
  MembershipPastDueData,
  MembershipRenewedData,
  MembershipResumedData,
} from '../domain/membership/events';
import type { CreatorRegistered } from '../domain/creators/events';
import type { StaffRoleGrantedData } from '../domain/payouts/staff-role';
import { rowPerEvent, type Row } from './engine/keyed-rows';
import type { Projector } from './engine/projector';

/**
 * The `users` read model (SPEC §3 users fields, snake_case). One handler per event type:
 * other contexts extend it by adding their handler to `userHandlers` (and bumping `version`).
 * A handler takes the user's row (undefined before UserRegistered) and returns the row after
 * the event, with absolute values taken from the event, so applying an event twice changes
 * nothing. `applyAll` runs them over a batch in memory: one read and one upsert per batch.
 */

export type UserEventHandler = (user: Row | undefined, event: RecordedEvent) => Row | undefined;

/** When the event happened: its occurredAt, else when it was recorded. */
const at = (event: RecordedEvent) => (event.metadata.occurredAt as string | undefined) ?? event.createdAt;

/** Sets fields of an existing user (none yet: nothing, as UPDATE ... WHERE id). */
const update =
  <D>(fields: (data: D, user: Row) => Row): UserEventHandler =>
  (user, event) =>
    user && { ...user, ...fields(event.data as D, user), updated_at: at(event) };

export const userHandlers: Record<string, UserEventHandler> = {
  UserRegistered(user, event) {
    if (user) return user;
    const d = event.data as UserRegisteredData;
    // Every column, with the table's defaults: the row is inserted as built here.
    return {
      id: d.userId,
      email: d.email,
      first_name: d.firstName,
      last_name: d.lastName,
      profile_image_url: null,
      password_hash: d.passwordHash,
      role: 'subscriber',
      is_active: true,
      password_reset_token_hash: null,
      password_reset_expires: null,
      login_attempts: 0,
      lock_until: null,
      last_login_at: null,
      is_creator: false,
      bio: null,
      cover_image_url: null,
      age_verified: false,
      gateway_customer_id: d.gatewayCustomerId,
      subscription_status: 'none',
      last_payment_date: null,
      subscription_end_date: null,
      created_at: d.registeredAt,
      updated_at: d.registeredAt,
    };
  },
  AgeVerified: update<AgeVerifiedData>(() => ({ age_verified: true })),
  LoginSucceeded: update<LoginSucceededData>((d) => ({ last_login_at: d.at, login_attempts: 0, lock_until: null })),
  LoginFailed: update<LoginFailedData>((d) => ({ login_attempts: d.attempts })),
  AccountLocked: update<AccountLockedData>((d) => ({ lock_until: d.lockedUntil })),
  PasswordResetRequested: update<PasswordResetRequestedData>((d) => ({ password_reset_token_hash: d.tokenHash, password_reset_expires: d.expiresAt })),
  PasswordChanged: update<PasswordChangedData>((d) => ({
    password_hash: d.passwordHash,
    password_reset_token_hash: null,
    password_reset_expires: null,
    login_attempts: 0,
    lock_until: null,
  })),
  UserDeactivated: update<UserDeactivatedData>(() => ({ is_active: false })),
  // Becoming a creator never takes away the finance staff role.
  CreatorRegistered: update<CreatorRegistered['data']>((d, user) => ({ is_creator: true, role: user.role === 'admin' ? 'admin' : 'creator', bio: d.bio, cover_image_url: d.coverImageUrl })),
  StaffRoleGranted: update<StaffRoleGrantedData>((d) => ({ role: d.role })),
  MembershipActivated: update<MembershipActivatedData>((d) => ({ subscription_status: 'active', last_payment_date: d.activatedAt, subscription_end_date: d.periodEnd })),
  // Membership lifecycle (member money): subscription_end_date is when access ends.
  MembershipCanceled: update<MembershipCanceledData>((d) => ({ subscription_status: 'canceled', subscription_end_date: d.accessUntil })),
  MembershipResumed: update<MembershipResumedData>((d) => ({ subscription_status: 'active', subscription_end_date: d.periodEnd })),
  MembershipRenewed: update<MembershipRenewedData>((d) => ({ subscription_status: 'active', last_payment_date: d.renewedAt, subscription_end_date: d.periodEnd })),
  MembershipPastDue: update<MembershipPastDueData>((d) => ({ subscription_status: 'past_due', subscription_end_date: d.graceEndsAt })),
  MembershipExpired: update<MembershipExpiredData>(() => ({ subscription_status: 'expired' })),
  PaymentCardUpdated: update<PaymentCardUpdatedData>((d) => ({ gateway_customer_id: d.gatewayCustomerId })),
};

async function createTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('users', (t) => {
    t.uuid('id').primary();
    t.text('email').notNullable().unique();
    t.text('first_name').nullable();
    t.text('last_name').nullable();
    t.text('profile_image_url').nullable();
    t.text('password_hash').notNullable();
    t.text('role').notNullable().defaultTo('subscriber');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.text('password_reset_token_hash').nullable().index();
    t.timestamp('password_reset_expires', { useTz: true }).nullable();
    t.integer('login_attempts').notNullable().defaultTo(0);
    t.timestamp('lock_until', { useTz: true }).nullable();
    t.timestamp('last_login_at', { useTz: true }).nullable();
    t.boolean('is_creator').notNullable().defaultTo(false);
    t.text('bio').nullable();
    t.text('cover_image_url').nullable();
    t.boolean('age_verified').notNullable().defaultTo(false);
    t.text('gateway_customer_id').nullable();
    t.text('subscription_status').notNullable().defaultTo('none');
    t.timestamp('last_payment_date', { useTz: true }).nullable();
    t.timestamp('subscription_end_date', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export const usersProjector: Projector = {
  name: 'users',
  version: 3,
  tables: ['users'],
  get eventTypes() {
    return Object.keys(userHandlers);
  },
  createTables,
  // Every user event names its user: one read and one upsert per batch.
  ...rowPerEvent('users', 'id', (event) => (event.data as { userId: string }).userId, (user, event) => userHandlers[event.type]?.(user, event) ?? user),
};
