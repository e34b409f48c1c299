import type { Knex } from 'knex';
import type { CurrentUser } from '../domain/contracts/accounts';
import type {
  AccountDeletedData,
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
import { publicMediaUrl, type ProfileImageSetData } from '../domain/media/profile-images';
import type { AccountStanding } from '../domain/contracts/safety';
import type { UserBanned, UserReinstated, UserSuspended } from '../domain/safety/events';
import { DELETED_FIRST_NAME, DELETED_LAST_NAME, forgottenEmail } from '../domain/privacy/personal-data';
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
      standing: 'active',
      suspended_until: null,
      pending_review: false,
      created_at: d.registeredAt,
      updated_at: d.registeredAt,
    };
  },
  AgeVerified: update<AgeVerifiedData>(() => ({ age_verified: true })),
  LoginSucceeded: update<LoginSucceededData>((d) => ({ last_login_at: d.at, login_attempts: 0, lock_until: null })),
  LoginFailed: update<LoginFailedData>((d) => ({ login_attempts: d.attempts })),
  AccountLocked: update<AccountLockedData>((d) => ({ lock_until: d.lockedUntil })),
  PasswordResetRequested: update<PasswordResetRequestedData>((d) => ({
    password_reset_token_hash: d.tokenHash,
    password_reset_expires: d.expiresAt,
  })),
  PasswordChanged: update<PasswordChangedData>((d) => ({
    password_hash: d.passwordHash,
    password_reset_token_hash: null,
    password_reset_expires: null,
    login_attempts: 0,
    lock_until: null,
  })),
  UserDeactivated: update<UserDeactivatedData>(() => ({ is_active: false })),
  // Becoming a creator never takes away the finance staff role.
  CreatorRegistered: update<CreatorRegistered['data']>((d, user) => ({
    is_creator: true,
    role: user.role === 'admin' ? 'admin' : 'creator',
    bio: d.bio,
    cover_image_url: d.coverImageUrl,
  })),
  StaffRoleGranted: update<StaffRoleGrantedData>((d) => ({ role: d.role })),
  MembershipActivated: update<MembershipActivatedData>((d) => ({
    subscription_status: 'active',
    last_payment_date: d.activatedAt,
    subscription_end_date: d.periodEnd,
  })),
  // Membership lifecycle (member money): subscription_end_date is when access ends.
  MembershipCanceled: update<MembershipCanceledData>((d) => ({
    subscription_status: 'canceled',
    subscription_end_date: d.accessUntil,
  })),
  MembershipResumed: update<MembershipResumedData>((d) => ({
    subscription_status: 'active',
    subscription_end_date: d.periodEnd,
  })),
  MembershipRenewed: update<MembershipRenewedData>((d) => ({
    subscription_status: 'active',
    last_payment_date: d.renewedAt,
    subscription_end_date: d.periodEnd,
  })),
  MembershipPastDue: update<MembershipPastDueData>((d) => ({
    subscription_status: 'past_due',
    subscription_end_date: d.graceEndsAt,
  })),
  MembershipExpired: update<MembershipExpiredData>(() => ({ subscription_status: 'expired' })),
  PaymentCardUpdated: update<PaymentCardUpdatedData>((d) => ({ gateway_customer_id: d.gatewayCustomerId })),
  // Avatar and cover from one's own media (issue 18): their public URL takes the SPEC field's place.
  AvatarSet: update<ProfileImageSetData>((d) => ({ profile_image_url: publicMediaUrl(d.mediaId, d.variant) })),
  CoverSet: update<ProfileImageSetData>((d) => ({ cover_image_url: publicMediaUrl(d.mediaId, d.variant) })),
  // Trust and safety: the account's standing (see `standingOf`).
  UserSuspended: update<UserSuspended['data']>((d) => ({
    standing: 'suspended',
    suspended_until: d.until,
    pending_review: d.automatic,
  })),
  UserBanned: update<UserBanned['data']>(() => ({ standing: 'banned', suspended_until: null, pending_review: false })),
  UserReinstated: update<UserReinstated['data']>(() => ({
    standing: 'active',
    suspended_until: null,
    pending_review: false,
  })),
  // Issue 23: the person is forgotten. Their name and email read as the forgotten values (as the
  // log replays once their key is gone); no session, sign-in or reset works for the account.
  AccountDeleted: update<AccountDeletedData>((d, user) => ({
    email: forgottenEmail(d.userId),
    first_name: DELETED_FIRST_NAME,
    last_name: DELETED_LAST_NAME,
    profile_image_url: null,
    cover_image_url: null,
    bio: null,
    password_hash: '',
    password_reset_token_hash: null,
    password_reset_expires: null,
    is_active: false,
    // Their creator page is gone (the creators model drops it): no longer a creator.
    is_creator: false,
    role: user.role === 'creator' ? 'subscriber' : user.role,
  })),
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
    t.text('standing').notNullable().defaultTo('active');
    t.timestamp('suspended_until', { useTz: true }).nullable();
    t.boolean('pending_review').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export const usersProjector: Projector = {
  name: 'users',
  // 5: AccountDeleted (issue 23).
  version: 5,
  tables: ['users'],
  get eventTypes() {
    return Object.keys(userHandlers);
  },
  createTables,
  // Every user event names its user: one read and one upsert per batch.
  ...rowPerEvent(
    'users',
    'id',
    (event) => (event.data as { userId: string }).userId,
    (user, event) => userHandlers[event.type]?.(user, event) ?? user,
  ),
};

// Queries of the `users` read model and the mapping of its row to the client's view.

export interface UserRow {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  password_hash: string;
  role: CurrentUser['role'];
  is_active: boolean;
  is_creator: boolean;
  age_verified: boolean;
  subscription_status: string;
  last_payment_date: Date | null;
  subscription_end_date: Date | null;
  created_at: Date;
  standing: string;
  suspended_until: Date | null;
  pending_review: boolean;
  [column: string]: unknown;
}

/**
 * The user's columns a signed-in request reads (who they are, their access and standing), looked
 * up with its session on every request. Not the rest: password and reset hashes, login counters
 * and profile text stay in the table, off every request.
 */
export const SESSION_USER_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'profile_image_url',
  'role',
  'is_active',
  'is_creator',
  'age_verified',
  'subscription_status',
  'last_payment_date',
  'subscription_end_date',
  'created_at',
  'standing',
  'suspended_until',
  'pending_review',
] as const;
export type SessionUser = Pick<UserRow, (typeof SESSION_USER_COLUMNS)[number]>;

const SESSION_USER_TIMESTAMPS = [
  'last_payment_date',
  'subscription_end_date',
  'created_at',
  'suspended_until',
] as const satisfies ReadonlyArray<(typeof SESSION_USER_COLUMNS)[number]>;

/**
 * A SessionUser's columns, its timestamps as dates: text ones (the page reads' viewer comes as
 * JSON) are revived, dates are left. Revives the object it is given, which it then returns.
 */
export function reviveSessionUser(json: Record<string, unknown>): SessionUser {
  for (const column of SESSION_USER_TIMESTAMPS)
    if (typeof json[column] === 'string') json[column] = new Date(json[column] as string);
  return json as unknown as SessionUser;
}

/** The account's standing at `now` (a suspension past its end is over). */
export function standingOf(row: { [column: string]: unknown }, now: Date): AccountStanding {
  const until = row.suspended_until ? new Date(row.suspended_until as string | Date) : null;
  if (row.standing === 'banned') return { status: 'banned', suspendedUntil: null, pendingReview: false };
  if (row.standing === 'suspended' && (until === null || until > now))
    return {
      status: 'suspended',
      suspendedUntil: until && until.toISOString(),
      pendingReview: Boolean(row.pending_review),
    };
  return { status: 'active', suspendedUntil: null, pendingReview: false };
}

/** Suspended or banned: the account may not sign in, and its sessions and sockets end. */
export const isDeactivated = (row: Parameters<typeof standingOf>[0], now: Date) =>
  standingOf(row, now).status !== 'active';

/** Whether a creator is banned now (their posts are hidden and payouts held). */
export async function isBanned(db: Knex, userId: string): Promise<boolean> {
  return Boolean(await db('users').where({ id: userId, standing: 'banned' }).first('id'));
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function toCurrentUser(row: SessionUser): CurrentUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    profileImageUrl: row.profile_image_url,
    role: row.role,
    isCreator: row.is_creator,
    ageVerified: row.age_verified,
    subscriptionStatus: row.subscription_status,
    lastPaymentDate: iso(row.last_payment_date),
    subscriptionEndDate: iso(row.subscription_end_date),
    createdAt: iso(row.created_at)!,
  };
}

export async function findUserRow(db: Knex, userId: string): Promise<UserRow | null> {
  return (await db<UserRow>('users').where({ id: userId }).first()) ?? null;
}

/** The signed-in user as the client reads it; null for an unknown or deactivated account. */
export async function currentUser(db: Knex, userId: string | null): Promise<CurrentUser | null> {
  if (!userId) return null;
  const row = await findUserRow(db, userId);
  return row && row.is_active ? toCurrentUser(row) : null;
}

export async function userExists(db: Knex, userId: string): Promise<boolean> {
  return Boolean(await db('users').where({ id: userId }).first('id'));
}

/** The email of each of these users that has a row (for naming the actors of events to finance staff). */
export async function emailsOf(db: Knex, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  return new Map((await db('users').whereIn('id', userIds).select('id', 'email')).map((u) => [u.id, u.email]));
}

/** The user whose pending password reset has this token hash (the reset form's lookup). */
export async function userIdByResetTokenHash(db: Knex, tokenHash: string): Promise<string | null> {
  return (await db('users').where({ password_reset_token_hash: tokenHash }).first('id'))?.id ?? null;
}

/** Members whose paid time ends by `at` (renewal candidates; each membership stream re-checks before acting). */
export function membershipsDueBy(db: Knex, at: Date, limit = 500): Promise<string[]> {
  return db('users')
    .whereIn('subscription_status', ['active', 'canceled', 'past_due'])
    .where('subscription_end_date', '<=', at)
    .orderBy('subscription_end_date')
    .limit(limit)
    .pluck('id');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids in paths are user ids (uuids): anything else is simply unknown (404), never a SQL error. */
export const isUserId = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/**
 * First plus last name. SPEC §2 falls back to the email, but names are shown to other members
 * and an address is not theirs to see: without a name the person is a generic `fallback`.
 */
export function displayName(row: { first_name: string | null; last_name: string | null }, fallback = 'Member'): string {
  const name = [row.first_name, row.last_name]
    .map((part) => (part ?? '').trim())
    .filter(Boolean)
    .join(' ');
  return name || fallback;
}
