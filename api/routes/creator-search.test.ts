import type supertest from 'supertest';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { signUpMember } from '../../ops/testing/members';

/** GET /api/creators?q=&limit=: the search box's suggestions and the search page (issue 19). */
jest.setTimeout(60_000);
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ trustProxy: true });
});
afterAll(() => stack.close());

const member = (firstName: string, lastName: string) => signUpMember(stack, firstName, { lastName });

async function creator(firstName: string, lastName: string, bio: string) {
  const who = await member(firstName, lastName);
  await who.agent.post('/api/creators/register').send({ bio }).expect(201);
  return who;
}

// A word no other creator has; the creators register in the reverse of the order search ranks them.
const word = 'Quorra';
let searcher: supertest.Agent;
let inBio: string;
let insideName: string;
let nameStart: string;

beforeAll(async () => {
  inBio = (await creator('Dana', 'Plain', `Fan of ${word} recipes`)).id;
  insideName = (await creator('Cara', `Mc${word}`, 'Travel')).id;
  nameStart = (await creator('Bert', `${word}son`, 'Music')).id;
  await creator('Eve', 'Other', 'Nothing alike');
  searcher = (await member('Sid', 'Searcher')).agent;
  expect(await stack.settle()).toBe(true);
});

const search = async (query: Record<string, string>) => (await searcher.get('/api/creators').query(query)).body;

describe('creator search', () => {
  it('matches names and bios case-insensitively: names starting with the text first, then names containing it, then bios', async () => {
    const found = await search({ q: word.toUpperCase() });
    expect(found.map((c: { id: string }) => c.id)).toEqual([nameStart, insideName, inBio]);
    expect(found[0]).toMatchObject({ name: `Bert ${word}son`, postCount: 0, subscriberCount: 0 });
  });

  it('matches the full name across first and last name, and by the start of a first name', async () => {
    expect((await search({ q: `cara mc${word}` })).map((c: { id: string }) => c.id)).toEqual([insideName]);
    expect((await search({ q: 'ber' })).map((c: { name: string }) => c.name)).toEqual([`Bert ${word}son`]);
  });

  it('returns at most `limit` creators', async () => {
    expect((await search({ q: word, limit: '2' })).map((c: { id: string }) => c.id)).toEqual([nameStart, insideName]);
  });

  it('takes % and _ literally', async () => {
    expect(await search({ q: '%' })).toEqual([]);
    expect(await search({ q: '_' })).toEqual([]);
  });

  it('refuses a search that is too long or a bad limit with a 400, and a visitor with a 401', async () => {
    const long = await searcher.get('/api/creators').query({ q: 'x'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.error).toBeTruthy();
    expect((await searcher.get('/api/creators').query({ q: word, limit: '0' })).status).toBe(400);
    expect((await stack.agent().get('/api/creators').query({ q: word })).status).toBe(401);
  });
});
