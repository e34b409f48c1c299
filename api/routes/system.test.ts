import supertest from 'supertest';
import type { EventPage, RebuildJobView, SystemStatusView } from '../../domain/contracts/system';
import { allProjectors } from '../../projections/engine/registry';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { person } from '../../ops/testing/payouts-fixtures';

let stack: TestStack;
let admin: supertest.Agent;
beforeAll(async () => {
  stack = await startTestStack();
  admin = (await person(stack, 'admin')).agent;
});
afterAll(() => stack.close());

it('is for finance staff only: 401 without a session, 403 for members', async () => {
  await supertest(stack.url).get('/api/system/status').expect(401);
  const member = (await person(stack, 'member')).agent;
  await member.get('/api/system/status').expect(403);
  await member.get('/api/system/events').expect(403);
  await member.post('/api/system/rebuild').send({ projection: 'all' }).expect(403);
});

it('shows every projection with checkpoint, lag and state, and event counts by type', async () => {
  const res = await admin.get('/api/system/status').expect(200);
  const status = res.body as SystemStatusView;
  expect(status.eventStore).toMatchObject({ kind: 'postgres', status: 'ok' });
  expect(status.projections.map((p) => p.name)).toEqual(expect.arrayContaining(allProjectors.map((p) => p.name)));
  expect(status.projections[0]).toEqual({
    name: expect.any(String),
    version: expect.any(Number),
    checkpoint: expect.stringMatching(/^\d+\/\d+$/),
    lag: expect.any(Number),
    state: expect.any(String),
  });
  expect(status.eventTypes).toEqual(expect.arrayContaining([{ type: 'UserRegistered', count: 2 }]));
});

it('browses the log newest first, filtered by type and stream, page by page, with data and metadata', async () => {
  for (let i = 0; i < 5; i++)
    await stack.store.append(
      'probe-1',
      [{ type: 'SystemProbed', data: { i }, metadata: { actorId: 'ops', correlationId: `c-${i}` } }],
      { expectedRevision: 'any' },
    );
  const first = (await admin.get('/api/system/events').query({ type: 'SystemProbed', limit: 3 }).expect(200))
    .body as EventPage;
  expect(first.events.map((e) => (e.data as { i: number }).i)).toEqual([4, 3, 2]);
  expect(first.events[0]).toMatchObject({
    streamId: 'probe-1',
    revision: '4',
    type: 'SystemProbed',
    metadata: { actorId: 'ops', correlationId: 'c-4' },
  });
  const second = (
    await admin.get('/api/system/events').query({ type: 'SystemProbed', limit: 3, before: first.next }).expect(200)
  ).body as EventPage;
  expect(second.events.map((e) => (e.data as { i: number }).i)).toEqual([1, 0]);
  expect(second.next).toBeNull();
  const byCategory = (await admin.get('/api/system/events').query({ stream: 'probe' }).expect(200)).body as EventPage;
  expect(byCategory.events).toHaveLength(5);
  const future = (await admin.get('/api/system/events').query({ from: '2999-01-01' }).expect(200)).body as EventPage;
  expect(future.events).toEqual([]);
  const bad = await admin.get('/api/system/events').query({ limit: 'lots', from: 'yesterday-ish' }).expect(400);
  expect(bad.body).toMatchObject({
    code: 'VALIDATION_ERROR',
    fields: { limit: 'Invalid limit', from: 'Invalid date' },
  });
});

it('rebuilds a read model in the background and reports progress until done', async () => {
  const name = allProjectors[0].name;
  await admin.post('/api/system/rebuild').send({ projection: 'nope' }).expect(404);
  await admin.post('/api/system/rebuild').send({}).expect(400);
  const job = await rebuildAndWait(name);
  expect(job).toMatchObject({ phase: 'done', completed: [name], error: null, finishedAt: expect.any(String) });
  expect(job.eventsRead).toBeGreaterThan(0);
});

it('rebuilds all read models in one pass over the log', async () => {
  const job = await rebuildAndWait('all');
  expect(job).toMatchObject({ phase: 'done', projection: `${allProjectors.length} read models`, error: null });
  expect(job.completed).toEqual(allProjectors.map((p) => p.name));
});

async function rebuildAndWait(projection: string): Promise<RebuildJobView> {
  const started = await admin.post('/api/system/rebuild').send({ projection }).expect(202);
  expect(started.body.job).toMatchObject({ target: projection });
  let job: RebuildJobView = started.body.job;
  for (let i = 0; i < 300 && job.phase !== 'done' && job.phase !== 'failed'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = (await admin.get('/api/system/rebuild').expect(200)).body.job;
  }
  return job;
}
