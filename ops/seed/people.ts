import { userIdForEmail } from '../../domain/accounts/lookup';
import { registerUser } from '../../domain/accounts/register';
import { userStream, type UserRegisteredData } from '../../domain/accounts/events';
import { memberStream } from '../../domain/chat/events';
import { memberDecider } from '../../domain/chat/member-decider';
import {
  LOOKING_FOR_GENDERS,
  INTERESTS,
  RELATIONSHIP_TYPES,
  SEXUAL_ORIENTATIONS,
  preferencesSchema,
  profileSchema,
} from '../../domain/contracts/chat';
import { handleCommand } from '../../domain/shared/command-handler';
import { as, type SeedEnv } from './env';
import { CITIES, DEMO_CREATOR, DEMO_LOGIN, FIRST, LAST, pick } from './names';

export interface Person {
  id: string;
  customerId: string;
  firstName: string;
  lastName: string;
  email: string;
}

export type Kind = 'member' | 'creator';

/** An account that already exists (the demo logins on a second run), from its streams. */
async function existingPerson(env: SeedEnv, email: string): Promise<Person | null> {
  const id = await userIdForEmail(env.store, email);
  if (!id) return null;
  const registered = (await env.store.readStream(userStream(id))).find((e) => e.type === 'UserRegistered');
  if (!registered) return null;
  const data = registered.data as UserRegisteredData;
  return { id, customerId: data.gatewayCustomerId, firstName: data.firstName, lastName: data.lastName, email };
}

/** Signs a person up like the register form does (sandbox card, first month charged). */
export async function registerPerson(env: SeedEnv, kind: Kind, i: number, now: Date): Promise<Person> {
  const demo = i === 0 ? (kind === 'member' ? DEMO_LOGIN : DEMO_CREATOR) : null;
  const email = demo?.email ?? `${kind}${i}.${env.tag}@seed.example.com`;
  const found = demo ? await existingPerson(env, email) : null;
  if (found) return found;
  const firstName = pick(FIRST, i + (kind === 'creator' ? 7 : 0));
  const lastName = pick(LAST, i * 3 + (kind === 'creator' ? 1 : 0));
  const input = {
    email,
    firstName,
    lastName,
    passwordHash: env.passwordHash,
    paymentToken: `dev_tok_seed_${kind}_${i % 10_000}`,
  };
  await registerUser({ store: env.store, gateway: env.payments }, input, as(null, now));
  const person = await existingPerson(env, email);
  if (!person) throw new Error(`${email} was not registered`);
  return person;
}

/** The Lively Chat profile and matching preferences, as the profile form saves them. */
export async function saveChatProfile(env: SeedEnv, person: Person, i: number, now: Date): Promise<void> {
  const profile = profileSchema.parse({
    displayName: person.firstName,
    age: 21 + (i % 30),
    location: pick(CITIES, i),
    genderIdentity: pick(LOOKING_FOR_GENDERS, i),
    sexualOrientation: pick(SEXUAL_ORIENTATIONS, i),
    relationshipType: [pick(RELATIONSHIP_TYPES, i)],
    bio: 'Here for good conversations.',
    interests: [pick(INTERESTS, i), pick(INTERESTS, i + 5)],
  });
  const preferences = preferencesSchema.parse({
    ageRangeMin: 21,
    ageRangeMax: 45,
    maxDistance: 50,
    lookingForGenders: [pick(LOOKING_FOR_GENDERS, i + 1), pick(LOOKING_FOR_GENDERS, i + 2)],
  });
  const stream = memberStream(person.id);
  await handleCommand(
    env.store,
    stream,
    memberDecider,
    { type: 'SaveProfile', userId: person.id, profile, now },
    as(person.id, now),
  );
  await handleCommand(
    env.store,
    stream,
    memberDecider,
    {
      type: 'SavePreferences',
      userId: person.id,
      preferences: { ...preferences, experienceLevel: preferences.experienceLevel ?? null },
      now,
    },
    as(person.id, now),
  );
}
