import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

/**
 * Which cores a benchmark's processes run on. The server measured (the product, or the trivial
 * route) gets core 0 to itself; the load generator and a local PostgreSQL share the others, as a
 * database on a machine of its own and a load generator elsewhere would in production.
 *
 * Why: on two cores left to the scheduler, the PostgreSQL backend a request wakes is placed on
 * the waker's core (wake-affine) and takes it from the product mid-request, so the product's
 * figure measured the scheduler as much as the code (issue 24: 1,372 against 1,634 req/s for the
 * feed, same minutes). The trivial route, which wakes nobody, barely notices. Both servers are
 * pinned the same way, so their ratio stays a like-for-like comparison.
 *
 * Linux with `taskset` and two cores or more; elsewhere nothing is pinned and `plan` says so.
 */
export interface Cores {
  /** How the run placed its processes, for the benchmark's header. */
  plan: string;
  /** `node` arguments prefixed so the server starts on its own core. */
  serverCommand(command: string, args: string[]): [string, string[]];
  /**
   * Moves a local PostgreSQL (its postmaster and every backend, later ones too) to the load cores;
   * says where it runs, and its postmaster's pid when it runs here. `restore` gives it every core
   * again (a server the run found running, such as `npm start`'s, outlives the run).
   */
  movePostgres(databaseUrl: string): Promise<{ placed: string; postmaster: number | null; restore(): void }>;
}

const UNPINNED: Cores = {
  plan: 'processes left to the scheduler',
  serverCommand: (command, args) => [command, args],
  movePostgres: async (databaseUrl) => ({
    placed: 'PostgreSQL left to the scheduler',
    postmaster: await postmasterPid(databaseUrl),
    restore: () => undefined,
  }),
};

/**
 * CPU time so far (user and system, every thread) of processes, from /proc; 0 for one gone.
 * With `reaped`, also that of their children that ended and were waited for.
 */
export function cpuSeconds(pids: number[], options: { reaped?: boolean } = {}): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime, in clock ticks of 1/100 s
      if (options.reaped) ticks += Number(fields[13]) + Number(fields[14]); // cutime, cstime
    } catch {
      // gone, or not Linux
    }
  }
  return ticks / 100;
}

/**
 * A local PostgreSQL's CPU time so far: its backends', and through the postmaster's reaped
 * children, that of the backends and workers (parallel index builds, say) that have ended.
 */
export const postgresCpuSeconds = (postmaster: number) =>
  cpuSeconds([postmaster], { reaped: true }) + cpuSeconds(childrenOf(postmaster));

/** What a measure took: wall seconds, and CPU seconds in this process and in PostgreSQL. */
export interface Spent {
  seconds: number;
  node: number;
  /** Null when PostgreSQL runs elsewhere (no /proc to read). */
  postgres: number | null;
}

/** Runs `work`, and says what it gave and what it took (PostgreSQL's CPU read from its postmaster, when local). */
export async function withCost<T>(postmaster: number | null, work: () => Promise<T>): Promise<[T, Spent]> {
  const pgBefore = postmaster ? postgresCpuSeconds(postmaster) : 0;
  const nodeBefore = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(nodeBefore);
  const postgres = postmaster ? postgresCpuSeconds(postmaster) - pgBefore : null;
  return [result, { seconds, node: (user + system) / 1e6, postgres }];
}

/** A local PostgreSQL's processes: the postmaster and its backends. */
const postgresProcesses = (postmaster: number | null) =>
  postmaster === null ? [] : [postmaster, ...childrenOf(postmaster)];

function taskset(args: string[]): boolean {
  try {
    execFileSync('taskset', args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The postmaster's direct children (the backends and PostgreSQL's own workers), from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return children;
}

/** The postmaster's pid, when the server runs on this machine (its data folder is readable here). */
export async function postmasterPid(databaseUrl: string): Promise<number | null> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    const pid = Number(readFileSync(path.join(rows[0].data_directory, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null; // a server elsewhere, or a role that may not see its folder
  } finally {
    await client.end();
  }
}

/** Pins this process (the load generator) to every core but 0, and says how servers will run. */
export function pinBenchmark(options: { unpinned?: boolean } = {}): Cores {
  const cores = os.availableParallelism();
  if (options.unpinned || process.platform !== 'linux' || cores < 2) return UNPINNED;
  const load = cores === 2 ? '1' : `1-${cores - 1}`;
  if (!taskset(['-a', '-p', '-c', load, String(process.pid)])) return UNPINNED;
  return {
    plan: `the server measured alone on core 0; the load generator and PostgreSQL on core${cores === 2 ? '' : 's'} ${load}`,
    serverCommand: (command, args) => ['taskset', ['-c', '0', command, ...args]],
    async movePostgres(databaseUrl) {
      const postmaster = await postmasterPid(databaseUrl);
      if (postmaster === null)
        return { placed: 'PostgreSQL not on this machine: left where it runs', postmaster, restore: () => undefined };
      // Backends forked from now on inherit the postmaster's cores; the running ones are moved.
      const moveTo = (list: string) => {
        for (const pid of postgresProcesses(postmaster)) taskset(['-a', '-p', '-c', list, String(pid)]);
      };
      moveTo(load);
      return {
        placed: `PostgreSQL (postmaster ${postmaster}) on core${cores === 2 ? '' : 's'} ${load}`,
        postmaster,
        restore: () => moveTo(`0-${cores - 1}`),
      };
    },
  };
}
