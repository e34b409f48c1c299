import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../net';
import type { Cores } from './_cores';

/** The product and a trivial express server, each in a process of its own, like in production. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `node args…` (on `cores`' server core) and resolves once `readyUrl` answers (below 500). */
export function startProcess(
  args: string[],
  env: Record<string, string>,
  readyUrl: string,
  cores?: Cores,
): Promise<ChildProcess> {
  const [command, commandArgs] = cores ? cores.serverCommand(process.execPath, args) : [process.execPath, args];
  const child = spawn(command, commandArgs, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return (async () => {
    for (let i = 0; i < 600; i++) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      const ok = await fetch(readyUrl).then(
        (res) => res.status < 500,
        () => false,
      );
      if (ok) return child;
      await sleep(200);
    }
    throw new Error(`${readyUrl} did not answer`);
  })();
}

/** The whole product (ops/start.ts) on `databaseUrl`; `/api/health` answering means it is up. */
export async function startProduct(
  databaseUrl: string,
  cores?: Cores,
): Promise<{ baseUrl: string; child: ChildProcess }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const tsx = path.resolve(__dirname, '../../node_modules/tsx/dist/loader.mjs');
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    REALTIME_PORT: String(await freePort()),
    METRICS_PORT: String(await freePort()),
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
  };
  // API_BENCH_PROFILE=<dir>: the product writes a CPU profile there when it stops (where a request's time goes).
  const profile = process.env.API_BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.API_BENCH_PROFILE}`]
    : [];
  const child = await startProcess(
    [...profile, '--import', tsx, path.resolve(__dirname, '../start.ts')],
    env,
    `${baseUrl}/api/health`,
    cores,
  );
  return { baseUrl, child };
}

const TRIVIAL_SERVER = `
const express = require('express');
const app = express();
app.get('/ping', (req, res) => res.json({ ok: true }));
app.listen(Number(process.env.PORT), '127.0.0.1');
`;

/** The baseline: one express route answering `{ ok: true }`. */
export async function startTrivialServer(cores?: Cores): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/ping`;
  const child = await startProcess(
    ['-e', TRIVIAL_SERVER],
    { PORT: String(port), NODE_PATH: path.resolve(__dirname, '../../node_modules') },
    url,
    cores,
  );
  return { url, child };
}

/** Ends the started processes and gives them a moment to close their connections. */
export async function stopProcesses(children: ChildProcess[]): Promise<void> {
  for (const child of children) child.kill('SIGTERM');
  await sleep(1500);
}
