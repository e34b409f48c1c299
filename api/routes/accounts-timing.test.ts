import { Worker } from 'node:worker_threads';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';

/**
 * OWASP: the time of a login or a reset request must not tell whether an account exists.
 * Each round sends one request of each kind back to back (which goes first alternates), so load
 * on this shared 2-core machine falls on both alike; every request comes from its own IP (no rate
 * limit interferes), and the medians over many rounds are compared.
 */
jest.setTimeout(400_000); // up to three measurements each, on a loaded machine

let stack: TestStack;
beforeAll(async () => {
  // Reset requests are limited per account (5 an hour): lifted here, so a few accounts serve many rounds.
  const many = { limit: 1_000, windowMs: 60_000 };
  stack = await startTestStack({
    trustProxy: true,
    ports: { authRateLimits: { resetRequest: { perIp: many, perAccount: many } } },
  });
});
afterAll(() => stack.close());

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;
const newIp = () => `10.77.${Math.floor(++counter / 250) % 250}.${counter % 250}`;
const client = () => stack.agent().set('X-Forwarded-For', newIp());
const PASSWORD = 'Passw0rdGood';
/** Rounds of each test: a login takes tens of milliseconds (argon2), a reset request's answer a few. */
const LOGIN_ROUNDS = 60;
const RESET_ROUNDS = 80;
const WARM_UP = 3;

/**
 * The timed requests go from a worker thread, an event loop of its own, as a client elsewhere on
 * the network would. The stack's projectors share this thread's loop: they apply what a request
 * wrote right after its answer, and an answer read here would wait for that work too.
 */
const TIMING_CLIENT = `
const { parentPort } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
parentPort.on('message', async ({ id, url, headers, body }) => {
  const started = performance.now();
  try {
    const response = await fetch(url, { method: 'POST', headers, body });
    await response.arrayBuffer();
    parentPort.postMessage({ id, ms: performance.now() - started, status: response.status });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});`;

interface Reply {
  id: number;
  ms?: number;
  status?: number;
  error?: string;
}
let timingClient: Worker;
const replies = new Map<number, (reply: Reply) => void>();
beforeAll(() => {
  timingClient = new Worker(TIMING_CLIENT, { eval: true });
  timingClient.on('message', (reply: Reply) => replies.get(reply.id)?.(reply));
  // A worker that dies fails the requests it had, instead of leaving them to the time-out.
  timingClient.on('error', (error) => replies.forEach((resolve, id) => resolve({ id, error: String(error) })));
});
afterAll(() => timingClient.terminate());

/** A POST from the timing client, from a fresh IP: the milliseconds until its whole answer was in. */
async function timedPost(path: string, body: object, status: number): Promise<number> {
  const id = ++counter;
  const headers = { 'Content-Type': 'application/json', Origin: stack.url, 'X-Forwarded-For': newIp() };
  const reply = await new Promise<Reply>((resolve) => {
    replies.set(id, resolve);
    timingClient.postMessage({ id, url: `${stack.url}${path}`, headers, body: JSON.stringify(body) });
  });
  replies.delete(id);
  if (reply.error !== undefined) throw new Error(`POST ${path}: ${reply.error}`);
  expect(reply.status).toBe(status);
  return reply.ms!;
}

/** Accounts registered side by side (nothing here is timed), once their side effects are all applied. */
async function registerAccounts(count: number): Promise<string[]> {
  const emails = Array.from({ length: count }, () => `timing.${unique()}@example.com`);
  await Promise.all(
    emails.map((email) =>
      client()
        .post('/api/auth/register')
        .send({
          firstName: 'Tim',
          lastName: 'Ing',
          email,
          password: PASSWORD,
          confirmPassword: PASSWORD,
          paymentToken: `dev_tok_${unique()}`,
        })
        .expect(201),
    ),
  );
  // What registering set off (projections, process managers, mail) is done before any sample is taken.
  await stack.settle();
  return emails;
}

/** As many emails without an account, each used as often as an account (the same rows are written either way). */
const unknownEmails = (count: number) => Array.from({ length: count }, () => `nobody.${unique()}@example.com`);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Sends one request and answers its time in milliseconds. */
type Send = (round: number) => Promise<number>;

/**
 * Rounds of one request of each kind, back to back, the first of the pair alternating; the
 * medians of each kind, warm-up rounds left out. `settle` (not timed) runs after each request, so
 * that work done after an answer (projections, the mail) never slows the next sample: each sample
 * is one request's own time.
 */
async function compare(rounds: number, known: Send, unknown: Send, settle: () => Promise<unknown>) {
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let round = 0; round < WARM_UP + rounds; round++) {
    const kinds = round % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
    for (const kind of kinds) {
      const ms = await (kind === 'known' ? known(round) : unknown(round));
      if (round >= WARM_UP) times[kind].push(ms);
      await settle();
      // The same quiet moment before every sample, whichever kind came before.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const result = { known: median(times.known), unknown: median(times.unknown) };
  console.log(
    `medians over ${rounds} rounds: known ${result.known.toFixed(1)} ms, unknown ${result.unknown.toFixed(1)} ms, ratio ${(Math.max(result.known, result.unknown) / Math.min(result.known, result.unknown)).toFixed(3)}`,
  );
  return result;
}

const ratio = ({ known, unknown }: { known: number; unknown: number }) =>
  Math.max(known, unknown) / Math.min(known, unknown);

/**
 * The medians of `measure` within 20% of each other, in one of up to three measurements: other
 * work on a shared machine can skew one run a little past the bound, while a real difference
 * (a lookup or a hash only one kind does) shows in every run.
 */
async function expectWithinTwentyPercent(measure: () => Promise<{ known: number; unknown: number }>) {
  let best = Infinity;
  for (let run = 0; run < 3 && best > 1.2; run++) best = Math.min(best, ratio(await measure()));
  expect(best).toBeLessThanOrEqual(1.2);
}

it('answers a login for an unknown email as slowly as a wrong password for an account (medians within 20%)', async () => {
  await expectWithinTwentyPercent(async () => {
    // Each email takes at most 4 failures, below the lockout, so every attempt checks a hash
    // (each measurement has emails of its own).
    const accounts = await registerAccounts(Math.ceil((WARM_UP + LOGIN_ROUNDS) / 4));
    const strangers = unknownEmails(accounts.length);
    return compare(
      LOGIN_ROUNDS,
      (round) =>
        timedPost('/api/auth/login', { email: accounts[round % accounts.length], password: 'Wrong0password' }, 401),
      (round) =>
        timedPost('/api/auth/login', { email: strangers[round % strangers.length], password: 'Wrong0password' }, 401),
      // A failure on an account is projected (users.login_attempts) after the answer.
      () => stack.settle(),
    );
  });
});

it('answers a reset request for an unknown email as quickly as for an account (medians within 20%)', async () => {
  const accounts = await registerAccounts(6);
  const strangers = unknownEmails(accounts.length);
  const mails = async () =>
    Number((await stack.db('email_outbox').where({ kind: 'password-reset' }).count({ n: '*' }))[0].n);
  let sent = 0;
  await expectWithinTwentyPercent(() =>
    compare(
      RESET_ROUNDS,
      async (round) => {
        const email = accounts[round % accounts.length];
        const ms = await timedPost('/api/auth/reset-password-request', { email }, 200);
        sent++;
        return ms;
      },
      (round) => timedPost('/api/auth/reset-password-request', { email: strangers[round % strangers.length] }, 200),
      async () => {
        await eventually(mails, (n) => n >= sent, 10_000);
        await stack.settle();
      },
    ),
  );
});
