import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { registerMember, unsubscribedUser } from '../../ops/testing/chat-client';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
  // Every read model exists and has caught up.
  for (let i = 0; i < 300 && (await stack.agent().get('/api/health')).body.ready !== true; i++)
    await new Promise((r) => setTimeout(r, 100));
}, 60_000);
afterAll(async () => {
  await stack.close();
}, 30_000);

const profile = {
  displayName: 'Alex',
  age: 30,
  location: 'Austin, TX',
  genderIdentity: 'man',
  sexualOrientation: 'straight',
  relationshipType: ['dating'],
  bio: 'Hi',
  interests: ['Music'],
};
const preferences = {
  sexualActivities: [],
  kinks: [],
  rolePreferences: ['Top'],
  experienceLevel: 'beginner',
  ageRangeMin: 18,
  ageRangeMax: 35,
  maxDistance: 25,
  lookingForGenders: ['woman'],
  dealBreakers: [],
  mustHaves: [],
  isPrivate: false,
};

it('needs a session and an active subscription', async () => {
  expect((await stack.agent().post('/api/profile').send(profile)).status).toBe(401);
  const plain = await unsubscribedUser(stack);
  expect((await plain.agent.post('/api/profile').send(profile)).status).toBe(403);
});

it('answers every SPEC §5 rule with its message', async () => {
  const { agent } = await registerMember(stack, 'Val');
  const fields = async (path: string, body: object) => {
    const res = await agent.post(path).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    return res.body.fields;
  };
  expect(
    await fields('/api/profile', {
      ...profile,
      displayName: 'A',
      age: 17,
      location: '',
      relationshipType: [],
      bio: 'x'.repeat(501),
    }),
  ).toEqual({
    displayName: 'Display name must be at least 2 characters',
    age: 'You must be 18 or older',
    location: 'Location is required',
    relationshipType: 'Select at least one relationship type',
    bio: 'Bio too long',
  });
  expect(
    await fields('/api/profile', {
      ...profile,
      displayName: 'x'.repeat(51),
      age: 100,
      location: 'x'.repeat(101),
      genderIdentity: 'robot',
    }),
  ).toMatchObject({
    displayName: 'Display name too long',
    age: 'Invalid age',
    location: 'Location too long',
  });
  expect(
    await fields('/api/preferences', {
      ...preferences,
      ageRangeMin: 40,
      ageRangeMax: 30,
      lookingForGenders: [],
      maxDistance: 501,
    }),
  ).toEqual({
    ageRangeMax: 'Minimum age must be less than or equal to maximum age',
    lookingForGenders: 'Select at least one gender',
    maxDistance: 'Distance must be at most 500 miles',
  });
  expect(await fields('/api/preferences', { ...preferences, lookingForGenders: ['prefer_not_to_say'] })).toEqual({
    'lookingForGenders.0': 'Select at least one gender',
  });
});

it('saves and reads back the profile and preferences', async () => {
  const { agent, userId } = await registerMember(stack, 'Sam');
  expect((await agent.get('/api/profile')).status).toBe(404);
  expect((await agent.get('/api/preferences')).body).toMatchObject({
    userId,
    ageRangeMin: 18,
    ageRangeMax: 99,
    maxDistance: 50,
    experienceLevel: null,
  });
  const saved = await agent.post('/api/profile').send({ ...profile, age: '31', interests: ['Music', 'Music', 'Art'] });
  expect(saved.status).toBe(200);
  expect(saved.body.profile).toMatchObject({
    userId,
    displayName: 'Alex',
    age: 31,
    interests: ['Music', 'Art'],
    relationshipType: ['dating'],
  });
  expect((await agent.get('/api/profile')).body).toMatchObject({ displayName: 'Alex', location: 'Austin, TX' });
  const prefs = await agent.post('/api/preferences').send(preferences);
  expect(prefs.status).toBe(200);
  expect(prefs.body.preferences).toMatchObject({
    rolePreferences: ['Top'],
    lookingForGenders: ['woman'],
    maxDistance: 25,
    ageRangeMax: 35,
  });
  expect((await stack.store.readStream(`chatMember-${userId}`)).map((e) => e.type)).toEqual([
    'ChatProfileSaved',
    'ChatPreferencesSaved',
  ]);
});
