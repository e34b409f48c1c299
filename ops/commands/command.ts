import type { Knex } from 'knex';
import type { EventStore } from '../../domain/event-store/port';
import type { Config } from '../config';

/** What a command gets: the configuration, a lazy connection and where to write. */
export interface OpsContext {
  config: Config;
  /** Opens the database and event store like the launcher does (starts embedded PostgreSQL if needed). */
  connect(): Promise<Connection>;
  out(line: string): void;
}

export interface Connection {
  databaseUrl: string;
  store: EventStore;
  db: Knex;
}

/** One `npm run ops -- <name>` command. */
export interface OpsCommand {
  name: string;
  /** Arguments as shown in help, e.g. `[projection|all]`. */
  args: string;
  summary: string;
  /** Longer help: options, what it prints, examples. */
  help: string;
  /** Resolves to the process exit code. */
  run(args: string[], context: OpsContext): Promise<number>;
}

/** `--name value` / `--name=value` options and positional arguments. */
export function parseArgs(args: string[]): { positional: string[]; options: Record<string, string | true> } {
  const positional: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (inline !== undefined) options[name] = inline;
    else if (i + 1 < args.length && !args[i + 1].startsWith('--')) options[name] = args[++i];
    else options[name] = true;
  }
  return { positional, options };
}
