import type { Knex } from 'knex';
import { hashPassword } from '../../domain/accounts/passwords';
import { PegRatesProvider } from '../../domain/crypto/rates';
import { SandboxCryptoGateway } from '../../domain/crypto/sandbox-gateway';
import type { EventStore } from '../../domain/event-store/port';
import { createSandboxGateway } from '../../domain/payments/sandbox-gateway';
import { createSandboxPayoutGateway } from '../../domain/payouts/sandbox-gateway';
import { ensureStaffAccount } from '../../domain/payouts/staff-role';
import pino from 'pino';
import type { MediaStorage } from '../../domain/media/storage';
import type { Sealer } from '../../domain/verification/commands';
import { createPorts } from '../wiring';
import { converse, like, subscribe } from './activity';
import { becomeCreator, publish, type Creator } from './creators';
import { as, day, type SeedEnv } from './env';
import { InProcessIdentityVerification } from './identity';
import { convertCrypto, payOut } from './money';
import { DEMO_ADMIN, DEMO_PASSWORD } from './names';
import { registerPerson, saveChatProfile, type Person } from './people';
import { countingStore, inParallel, progressLine, type Failures } from './workers';

/** How much of everything the in-process seed creates. */
export interface LargePlan {
  members: number;
  creators: number;
  postsPerCreator: number;
  /** Creators each member subscribes to (and likes and writes to). */
  subscriptionsPerMember: number;
  likesPerMember: number;
  /** Member -> creator messages, each answered; every second answer is paid and unlocked. */
  conversationsPerMember: number;
  /** Rounds of free conversations are added until this many events were appended. */
  minEvents: number;
  parallel: number;
}

export const LARGE_PLAN: LargePlan = {
  members: 20_000,
  creators: 1_000,
  postsPerCreator: 20,
  subscriptionsPerMember: 5,
  likesPerMember: 10,
  conversationsPerMember: 5,
  minEvents: 1_000_000,
  parallel: 16,
};

export interface LargeSeedReport {
  events: number;
  seconds: number;
  steps: Record<string, number>;
  failures: Failures;
}

/** Roughly what the plan appends before any top-up (for the ETA). */
export function estimateEvents(plan: LargePlan): number {
  const paid = Math.ceil(plan.conversationsPerMember / 2);
  const perMember =
    5 + 2 + 5 + plan.subscriptionsPerMember * 2 + plan.likesPerMember + plan.conversationsPerMember * 2 + paid * 3;
  return plan.members * perMember + plan.creators * (5 + 3 + 2 + plan.postsPerCreator + 3);
}

const DAY = 86_400_000;

/**
 * A large demo dataset made in this process by the domain's own command functions (no
 * HTTP): many commands in parallel, every change a command, process-manager reactions run
 * inline (they are idempotent, so a running product writes nothing twice). The story spans
 * the last 21 days, so earnings older than the 7-day hold are paid out today.
 */
export async function seedLarge(
  { store, db }: { store: EventStore; db: Knex },
  plan: LargePlan,
  log: (line: string) => void = () => undefined,
): Promise<LargeSeedReport> {
  const started = Date.now();
  const counter = countingStore(store);
  const progress = progressLine(counter.appended, Math.max(plan.minEvents, estimateEvents(plan)), log);
  const report: LargeSeedReport = { events: 0, seconds: 0, steps: {}, failures: { count: 0, first: [] } };
  const env: SeedEnv = {
    store: counter.store,
    payments: createSandboxGateway(),
    crypto: new SandboxCryptoGateway(),
    payouts: createSandboxPayoutGateway(),
    rates: new PegRatesProvider(),
    conversionNumbers: {
      next: async () => Number((await db.raw(`SELECT nextval('crypto_conversion_number_seq') AS n`)).rows[0].n),
    },
    passwordHash: await hashPassword(DEMO_PASSWORD),
    tag: started.toString(36),
    start: started - 21 * DAY,
    parallel: plan.parallel,
    failures: report.failures,
    phase: progress.phase,
  };
  const step = async (name: string, count: number, work: (i: number) => Promise<void>) => {
    env.phase(name);
    const failedBefore = report.failures.count;
    await inParallel(count, env.parallel, report.failures, work);
    report.steps[name] = (report.steps[name] ?? 0) + count - (report.failures.count - failedBefore);
  };
  // Creators verify their identity with the product's media storage and sealing key (its ports).
  const ports = createPorts({ db, logger: pino({ level: 'silent' }) });
  const identity = new InProcessIdentityVerification({
    storage: ports.mediaStorage as MediaStorage,
    sealer: ports.identitySealer as Sealer,
  });
  try {
    const { members, creators } = await people(env, plan, step, identity);
    await activity(env, plan, members, creators, step, counter.appended);
    await payouts(env, creators, step);
  } finally {
    progress.stop();
    await identity.close();
  }
  return { ...report, events: counter.appended(), seconds: (Date.now() - started) / 1000 };
}

type Step = (name: string, count: number, work: (i: number) => Promise<void>) => Promise<void>;

async function people(
  env: SeedEnv,
  plan: LargePlan,
  step: Step,
  identity: InProcessIdentityVerification,
): Promise<{ members: Person[]; creators: Creator[] }> {
  const members: Person[] = new Array(plan.members);
  const creatorPeople: Person[] = new Array(plan.creators);
  await step(
    'members signed up',
    plan.members,
    async (i) => void (members[i] = await registerPerson(env, 'member', i, day(env, i / plan.members))),
  );
  await step(
    'creators signed up',
    plan.creators,
    async (i) =>
      void (creatorPeople[i] = await registerPerson(env, 'creator', i, day(env, 0.5 + i / plan.creators / 2))),
  );
  const creators: Creator[] = new Array(plan.creators);
  await step(
    'creators with tiers',
    plan.creators,
    async (i) =>
      void (creators[i] = await becomeCreator(env, creatorPeople[i], i, day(env, 1 + i / plan.creators / 2))),
  );
  // Verified, as locked posts, paid messages and payouts need (issue 20).
  await step('identities verified', plan.creators, (i) =>
    identity.verify(env.store, creators[i], day(env, 1.2 + i / plan.creators / 4)),
  );
  const posts = plan.creators * plan.postsPerCreator;
  await step('posts', posts, (n) =>
    publish(env, creators[n % plan.creators], Math.floor(n / plan.creators), day(env, 1.5 + (2 * n) / posts)),
  );
  await step('chat profiles', plan.members, (i) => saveChatProfile(env, members[i], i, day(env, 2 + i / plan.members)));
  return { members: members.filter(Boolean), creators: creators.filter(Boolean) };
}

async function activity(
  env: SeedEnv,
  plan: LargePlan,
  members: Person[],
  creators: Creator[],
  step: Step,
  appended: () => number,
): Promise<void> {
  const M = members.length;
  const S = Math.min(plan.subscriptionsPerMember, creators.length);
  // The k-th creator member m follows: distinct for k < number of creators.
  const followed = (m: number, k: number) => creators[(m * 7 + (k % S)) % creators.length];
  await step('crypto conversions', M, (m) => convertCrypto(env, members[m], m, day(env, 3 + m / M)));
  await step('creator subscriptions', M * S, (n) =>
    subscribe(env, members[n % M], followed(n % M, Math.floor(n / M)), Math.floor(n / M), day(env, 4 + n / (M * S))),
  );
  const L = plan.likesPerMember;
  await step('likes', M * L, async (n) => {
    const m = n % M;
    const k = Math.floor(n / M);
    const creator = followed(m, k);
    if (creator.postIds.length)
      await like(
        env,
        members[m],
        creator.postIds[(m + Math.floor(k / S)) % creator.postIds.length],
        day(env, 5 + (3 * n) / (M * L)),
      );
  });
  const C = plan.conversationsPerMember;
  await step('conversations (paid answers unlocked)', M * C, (n) => {
    const k = Math.floor(n / M);
    return converse(
      env,
      members[n % M],
      followed(n % M, k),
      `${n % M}.${k}`,
      k % 2 === 0,
      true,
      day(env, 6 + (6 * n) / (M * C)),
    );
  });
  for (let round = 1; appended() < plan.minEvents && M > 0; round++) {
    await step('more conversations', M * C, (n) => {
      const k = Math.floor(n / M);
      return converse(
        env,
        members[n % M],
        followed(n % M, k + round),
        `${round}.${n % M}.${k}`,
        false,
        false,
        day(env, 12 + (round % 8) + n / (M * C)),
      );
    });
  }
}

async function payouts(env: SeedEnv, creators: Creator[], step: Step): Promise<void> {
  const now = new Date();
  env.phase('finance staff and payouts');
  const staff = await ensureStaffAccount(
    env.store,
    { email: DEMO_ADMIN.email, passwordHash: async () => env.passwordHash },
    as(null, now),
  );
  await step('payouts', creators.length, (i) => payOut(env, creators[i], i, staff.userId, now));
}
