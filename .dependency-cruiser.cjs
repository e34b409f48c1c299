/**
 * Tests may reach across layers (they start the whole product); production code may not.
 * The layer rules of DESIGN §3 and §9, checked on every import by `npm run lint` (part of
 * `npm test`). docs/architecture.md explains them; a violation names the rule below.
 */
const layers = ['domain', 'projections', 'api', 'realtime', 'web', 'ops'];
const outside = (...allowed) => `^(${layers.filter((layer) => !allowed.includes(layer)).join('|')})/`;
const PRODUCTION = '^(domain|projections|api|realtime|web/src)/';
const TEST_CODE = '(\\.test\\.tsx?$|/testing/|^ops/testing/|^web/e2e/)';

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'The write side imports nothing of the other layers.',
      severity: 'error',
      from: { path: '^domain/', pathNot: TEST_CODE },
      to: { path: outside('domain') },
    },
    {
      name: 'contracts-stand-alone',
      comment: 'domain/contracts is shared with the browser: it imports only itself (and zod).',
      severity: 'error',
      from: { path: '^domain/contracts/' },
      to: { path: '^domain/', pathNot: '^domain/contracts/' },
    },
    {
      name: 'projections-read-domain-only',
      severity: 'error',
      from: { path: '^projections/', pathNot: TEST_CODE },
      to: { path: outside('domain', 'projections') },
    },
    {
      name: 'api-reads-domain-and-projections',
      severity: 'error',
      from: { path: '^api/', pathNot: TEST_CODE },
      to: { path: outside('domain', 'projections', 'api') },
    },
    {
      name: 'realtime-reads-domain-and-projections',
      severity: 'error',
      from: { path: '^realtime/', pathNot: TEST_CODE },
      to: { path: outside('domain', 'projections', 'realtime') },
    },
    {
      name: 'one-way-into-a-context',
      comment: 'api/ and realtime/ reach a bounded context only through its commands.ts (and its events.ts for types).',
      severity: 'error',
      from: { path: '^(api|realtime)/', pathNot: TEST_CODE },
      to: {
        path: '^domain/(?!contracts/|shared/|event-store/)[^/]+/',
        pathNot: '^domain/[^/]+/(commands|events)\\.ts$',
      },
    },
    {
      name: 'web-imports-contracts-only',
      comment: 'The client shares payload schemas with the server and nothing else.',
      severity: 'error',
      from: { path: '^web/src/' },
      to: { path: '^(domain|projections|api|realtime|ops)/', pathNot: '^domain/contracts/' },
    },
    {
      name: 'features-stand-alone',
      comment: 'A feature never imports another; what two share lives in web/src/lib or web/src/components.',
      severity: 'error',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'shared-web-code-below-features',
      comment: 'Imports flow lib/components -> features -> app.',
      severity: 'error',
      from: { path: '^web/src/(lib|components)/' },
      to: { path: '^web/src/(features|app)/' },
    },
    {
      name: 'features-below-app',
      severity: 'error',
      from: { path: '^web/src/features/' },
      to: { path: '^web/src/app/' },
    },
    {
      name: 'no-test-code-in-production',
      comment: 'Fixtures and test helpers live beside the tests, never in what the product runs.',
      severity: 'error',
      from: { path: PRODUCTION, pathNot: TEST_CODE },
      to: { path: TEST_CODE },
    },
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
