import { loadConfig } from './config';
import type { Connection, OpsCommand, OpsContext } from './commands/command';
import { openConnection } from './commands/connect';
import { opsCommands } from './commands/index';

/** The overview `npm run ops -- help` prints. */
export function overview(commands: OpsCommand[] = opsCommands): string {
  const width = Math.max(...commands.map((c) => `${c.name} ${c.args}`.length), 10);
  return [
    'Usage: npm run ops -- <command> [arguments]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${`${c.name} ${c.args}`.trim().padEnd(width)}  ${c.summary}`),
    `  ${'help [command]'.padEnd(width)}  This overview, or the details of one command`,
    '',
    'Connects like `npm start`: DATABASE_URL, or the embedded PostgreSQL in LIVELY_DATA_DIR (started',
    'for the command when no running stack serves it); EVENTSTORE_CONNECTION_STRING selects EventStoreDB.',
  ].join('\n');
}

export function commandHelp(command: OpsCommand): string {
  return [
    `Usage: npm run ops -- ${command.name} ${command.args}`.trimEnd(),
    '',
    command.summary + '.',
    '',
    command.help,
  ].join('\n');
}

/** Runs one command line; resolves to the exit code. */
export async function runCli(
  argv: string[],
  out: (line: string) => void = (line) => console.log(line),
): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    const topic = args[0] && opsCommands.find((c) => c.name === args[0]);
    out(topic ? commandHelp(topic) : overview());
    return 0;
  }
  const command = opsCommands.find((c) => c.name === name);
  if (!command) {
    out(`Unknown command "${name}".\n\n${overview()}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    out(commandHelp(command));
    return 0;
  }
  const config = loadConfig();
  let connection: (Connection & { close(): Promise<void> }) | null = null;
  const context: OpsContext = {
    config,
    out,
    connect: async () => (connection ??= await openConnection(config, (line) => process.stderr.write(`${line}\n`))),
  };
  try {
    return await command.run(args, context);
  } finally {
    await (connection as (Connection & { close(): Promise<void> }) | null)?.close();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
