import fs from 'node:fs';
import path from 'node:path';

/**
 * Every feature injects its endpoints into the one api. When two inject the same name, RTK
 * Query keeps whichever loaded first and drops the other without a word, so a button would
 * call another feature's endpoint (a creator-tier subscribe once bought the site plan).
 */
const SOURCE = path.join(__dirname, '..');
const ENDPOINT = /^\s+(\w+): build\.(?:query|mutation|infiniteQuery)\b/gm;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('RTK Query endpoint names', () => {
  it('are unique across every feature and lib module', () => {
    const owners = new Map<string, string[]>();
    for (const file of sourceFiles(SOURCE)) {
      for (const [, name] of fs.readFileSync(file, 'utf8').matchAll(ENDPOINT)) {
        owners.set(name, [...(owners.get(name) ?? []), path.relative(SOURCE, file)]);
      }
    }
    expect(owners.size).toBeGreaterThan(30);
    const duplicates = [...owners].filter(([, files]) => files.length > 1);
    expect(duplicates).toEqual([]);
  });
});
