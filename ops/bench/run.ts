import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm run bench -- <name> [options]`: runs ops/bench/<name>.ts, which exports
 * `run(args: string[]): Promise<void>`. Benchmarks print their figures beside a baseline
 * measured in the same run, and are not part of `npm test`.
 */
function available(): string[] {
  return readdirSync(__dirname)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'run.ts' && !file.startsWith('_'))
    .map((file) => file.replace(/\.ts$/, ''))
    .sort();
}

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const names = available();
  if (!name || !/^[a-z0-9-]+$/.test(name) || !existsSync(path.join(__dirname, `${name}.ts`))) {
    console.log(`Usage: npm run bench -- <name> [options]\nBenchmarks: ${names.join(', ')}`);
    process.exit(name ? 2 : 0);
  }
  const module = (await import(`./${name}`)) as { run?: (args: string[]) => Promise<void> };
  if (typeof module.run !== 'function') throw new Error(`ops/bench/${name}.ts does not export run(args)`);
  await module.run(args);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
