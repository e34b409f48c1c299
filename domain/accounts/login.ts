import { WrongExpectedRevisionError, type EventStore, type Position } from '../event-store/port';
import { loadState, metadataFor, type CommandContext } from '../shared/command-handler';
import {
  accountDecider,
  afterLoginFailure,
  invalidCredentials,
  isLocked,
  lockedError,
  type LoginFailures,
} from './decider';
import { userStream } from './events';
import { userIdForEmail } from './lookup';
import { verifyAgainstDummy, verifyPassword } from './passwords';

/**
 * Failure counts of emails that have no account: kept outside the log (a table), by the
 * accounts' rule, with a version for optimistic concurrency as a stream's revision.
 */
export interface UnknownEmailFailures {
  /** The email's counts and their version (0: none yet). */
  read(email: string): Promise<LoginFailures & { version: number }>;
  /** Writes `next` if the counts are still at `version`; false when a concurrent failure came first. */
  write(email: string, next: LoginFailures, version: number, now: Date): Promise<boolean>;
}

/** Conflicts with concurrent writers of the stream: read again and decide again, this many times at most. */
const MAX_ATTEMPTS = 10;

/**
 * Sign-in: the password is checked against the stored argon2id hash here, the decider records
 * the attempt (LoginSucceeded, or LoginFailed and on the 5th in a row an AccountLocked). A lock
 * does not stop the account's trusted clients (`trustedAccounts`: the accounts the client signed
 * in to before). An unknown email gets the same answers as an account, lock included, after the
 * same work: one read of its counts, a hash check, one conditional write of the counts (read
 * again only on a conflict). A recorded failure resolves with `succeeded: false`; a right password
 * of an account with two-factor on with `secondFactorRequired` (no sign-in yet).
 */
export async function login(
  store: EventStore,
  input: { email: string; password: string; trustedAccounts?: readonly string[] },
  context: CommandContext,
  unknownEmails: UnknownEmailFailures,
): Promise<{ userId: string; position: Position | null; succeeded: boolean; secondFactorRequired: boolean }> {
  const userId = await userIdForEmail(store, input.email);
  if (!userId) return refuseUnknownEmail(unknownEmails, input, context.now);
  const trustedClient = input.trustedAccounts?.includes(userId) ?? false;
  const stream = userStream(userId);
  let { state, revision } = await loadState(store, stream, accountDecider);
  // A locked account is refused before spending a hash check on it (as a locked unknown email is).
  if (isLocked(state, context.now) && !trustedClient) throw lockedError();
  let passwordMatched = await verifyPassword(state.passwordHash, input.password);
  // The attempt is decided on the state just read and appended at its revision: no second read of
  // the stream (an unknown email's counts are not read twice either). A concurrent writer came
  // first: decide again on the fresh stream (as handleCommand does), checking the password again
  // only if it changed meanwhile.
  for (let attempt = 1; ; attempt++) {
    const events = accountDecider.decide(
      { type: 'RecordLoginAttempt', passwordMatched, trustedClient, now: context.now },
      state,
    );
    const secondFactorRequired = events.some((event) => event.type === 'LoginPasswordVerified');
    const succeeded = secondFactorRequired || events.some((event) => event.type === 'LoginSucceeded');
    if (events.length === 0) return { userId, position: null, succeeded, secondFactorRequired };
    const metadata = metadataFor(context);
    try {
      const written = await store.append(
        stream,
        events.map((event) => ({ type: event.type, data: event.data, metadata })),
        { expectedRevision: revision ?? 'no_stream' },
      );
      return { userId, position: written.position, succeeded, secondFactorRequired };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
    }
    const checkedHash = state.passwordHash;
    ({ state, revision } = await loadState(store, stream, accountDecider));
    if (state.passwordHash !== checkedHash) passwordMatched = await verifyPassword(state.passwordHash, input.password);
  }
}

/** Fails like a wrong password, counts towards a lock like an account, and takes as long. */
async function refuseUnknownEmail(
  failures: UnknownEmailFailures,
  input: { email: string; password: string },
  now: Date,
): Promise<never> {
  let current = await failures.read(input.email);
  if (isLocked(current, now)) throw lockedError();
  await verifyAgainstDummy(input.password);
  // As handleCommand does: a concurrent failure came first, so decide again on the fresh counts.
  for (
    let attempt = 1;
    !(await failures.write(input.email, afterLoginFailure(current, now), current.version, now));
    attempt++
  ) {
    if (attempt >= MAX_ATTEMPTS) throw new Error('login failures: too many concurrent writers');
    current = await failures.read(input.email);
    if (isLocked(current, now)) throw lockedError();
  }
  throw invalidCredentials();
}
