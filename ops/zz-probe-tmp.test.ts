import { randomUUID } from 'node:crypto';
import { creditBalance, spendBalance } from '../domain/wallet/balance';
import { reconcile } from './commands/reconcile';
import { eventually } from './testing/eventually';
import { startTestStack, type TestStack } from './testing/harness';
jest.setTimeout(120_000);
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
  await eventually(() => stack.db('projection_checkpoints').pluck('name'), (names: string[]) => stack.deps.projectionNames.every((n) => names.includes(n)));
});
afterAll(() => stack.close());
it('probe: reconcile under live traffic', async () => {
  let writing = true;
  const writer = (async () => {
    let n = 0;
    while (writing) {
      const member = randomUUID();
      const context = { actorId: null, now: new Date() };
      await creditBalance(stack.store, member, { amountCents: 1000, reason: 'test credit', reference: `c:${member}` }, context);
      await spendBalance(stack.store, member, { amountCents: 300, reason: 'test spend', reference: `s:${member}` }, context);
      n++;
    }
    return n;
  })();
  const counts = new Map<string, number>();
  let runs = 0, inFlightWarnings = 0;
  const until = Date.now() + 8000;
  while (Date.now() < until) {
    const report = await reconcile({ store: stack.store, db: stack.db }, new Date(Date.now() + 10 * 60_000));
    runs++;
    if (report.warnings.some((w) => w.includes('concern events after'))) inFlightWarnings++;
    for (const p of report.problems) {
      const kind = p.replace(/[0-9a-f-]{36}/g, 'ID').replace(/\d+\.\d+/g, 'N');
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
  }
  writing = false;
  const written = await writer;
  console.log(`reconcile runs ${runs}, members written ${written}, runs with in-flight differences ${inFlightWarnings}, problems ${JSON.stringify([...counts])}`);
});
