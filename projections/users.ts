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
import type { ProjectionContext, Projector } from './projector';

/**
 * The `users` read model (SPEC §3 users fields, snake_case). One handler per event type:
 * other contexts extend it by adding their handler to `userHandlers` (and bumping `version`).
 * Every handler sets absolute values taken from the event, so applying an event twice changes
 * nothing.
 */

export type UserEventHandler = (context: ProjectionContext, event: RecordedEvent) => Promise<void>;

/** When the event happened: its occurredAt, else when it was recorded. */
const at = (event: RecordedEvent) => (event.metadata.occurredAt as string | undefined) ?? event.createdAt;

const update = (context: ProjectionContext, event: RecordedEvent, userId: string, fields: Record<string, unknown>) =>
  context.table('users').where({ id: userId }).update({ ...fields, updated_at: at(event) });

export const userHandlers: Record<string, UserEventHandler> = {
  async UserRegistered(context, event) {
    const d = event.data as UserRegisteredData;
    await context
      .table('users')
      .insert({
        id: d.userId,
        email: d.email,
        first_name: d.firstName,
        last_name: d.lastName,
        password_hash: d.passwordHash,
        gateway_customer_id: d.gatewayCustomerId,
        created_at: d.registeredAt,
        updated_at: d.registeredAt,
      })
      .onConflict('id')
      .ignore();
  },
  async AgeVerified(context, event) {
    const d = event.data as AgeVerifiedData;
    await update(context, event, d.userId, { age_verified: true });
  },
  async LoginSucceeded(context, event) {
    const d = event.data as LoginSucceededData;
    await update(context, event, d.userId, { last_login_at: d.at, login_attempts: 0, lock_until: null });
  },
  async LoginFailed(context, event) {
    const d = event.data as LoginFailedData;
    await update(context, event, d.userId, { login_attempts: d.attempts });
  },
  async AccountLocked(context, event) {
    const d = event.data as AccountLockedData;
    await update(context, event, d.userId, { lock_until: d.lockedUntil });
  },
  async PasswordResetRequested(context, event) {
    const d = event.data as PasswordResetRequestedData;
    await update(context, event, d.userId, { password_reset_token_hash: d.tokenHash, password_reset_expires: d.expiresAt });
  },
  async PasswordChanged(context, event) {
    const d = event.data as PasswordChangedData;
    await update(context, event, d.userId, {
      password_hash: d.passwordHash,
      password_reset_token_hash: null,
      password_reset_expires: null,
      login_attempts: 0,
      lock_until: null,
    });
  },
  async UserDeactivated(context, event) {
    const d = event.data as UserDeactivatedData;
    await update(context, event, d.userId, { is_active: false });
  },
  async CreatorRegistered(context, event) {
    const d = event.data as CreatorRegistered['data'];
    // Becoming a creator never takes away the finance staff role.
    const role = context.trx.raw(`CASE WHEN role = 'admin' THEN 'admin' ELSE 'creator' END`);
    await update(context, event, d.userId, { is_creator: true, role, bio: d.bio, cover_image_url: d.coverImageUrl });
  },
  async StaffRoleGranted(context, event) {
    const d = event.data as StaffRoleGrantedData;
    await update(context, event, d.userId, { role: d.role });
  },
  async MembershipActivated(context, event) {
    const d = event.data as MembershipActivatedData;
    await update(context, event, d.userId, { subscription_status: 'active', last_payment_date: d.activatedAt, subscription_end_date: d.periodEnd });
  },
  // Membership lifecycle (member money): subscription_end_date is when access ends.
  async MembershipCanceled(context, event) {
    const d = event.data as MembershipCanceledData;
    await update(context, event, d.userId, { subscription_status: 'canceled', subscription_end_date: d.accessUntil });
  },
  async MembershipResumed(context, event) {
    const d = event.data as MembershipResumedData;
    await update(context, event, d.userId, { subscription_status: 'active', subscription_end_date: d.periodEnd });
  },
  async MembershipRenewed(context, event) {
    const d = event.data as MembershipRenewedData;
    await update(context, event, d.userId, { subscription_status: 'active', last_payment_date: d.renewedAt, subscription_end_date: d.periodEnd });
  },
  async MembershipPastDue(context, event) {
    const d = event.data as MembershipPastDueData;
    await update(context, event, d.userId, { subscription_status: 'past_due', subscription_end_date: d.graceEndsAt });
  },
  async MembershipExpired(context, event) {
    const d = event.data as MembershipExpiredData;
    await update(context, event, d.userId, { subscription_status: 'expired' });
  },
  async PaymentCardUpdated(context, event) {
    const d = event.data as PaymentCardUpdatedData;
    await update(context, event, d.userId, { gateway_customer_id: d.gatewayCustomerId });
  },
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
  async apply(context, event) {
    await userHandlers[event.type]?.(context, event);
  },
};
