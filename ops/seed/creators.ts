import { tierSchema } from '../../domain/contracts/creators';
import { creatorDecider } from '../../domain/creators/decider';
import { creatorStream } from '../../domain/creators/events';
import { publishPost } from '../../domain/posts/publish';
import { handleCommand, loadState } from '../../domain/shared/command-handler';
import { newId } from '../../domain/shared/ids';
import { as, type SeedEnv } from './env';
import { creatorBio, pick, TOPICS } from './names';
import type { Person } from './people';

export interface Creator extends Person {
  tierIds: string[];
  postIds: string[];
}

const TIERS = [
  { name: 'Supporter', description: 'Every post, early.', price: '4.99', features: ['All posts', 'Monthly Q&A'] },
  {
    name: 'VIP',
    description: 'Everything, plus messages.',
    price: '14.99',
    features: ['All posts', 'Direct messages', 'Shout-outs'],
  },
];

/** Becomes a creator with two tiers (kept when the creator already has them). */
export async function becomeCreator(env: SeedEnv, person: Person, i: number, now: Date): Promise<Creator> {
  const stream = creatorStream(person.id);
  const context = as(person.id, now);
  let { state } = await loadState(env.store, stream, creatorDecider);
  if (!state.registered) {
    const bio = creatorBio(person.firstName, i);
    state = (
      await handleCommand(
        env.store,
        stream,
        creatorDecider,
        { type: 'RegisterCreator', userId: person.id, bio, coverImageUrl: null, at: now },
        context,
      )
    ).state;
  }
  if (state.tiers.size === 0) {
    for (const tier of TIERS) {
      const body = tierSchema.parse(tier);
      state = (
        await handleCommand(
          env.store,
          stream,
          creatorDecider,
          { type: 'CreateTier', creatorId: person.id, tierId: newId(), ...body, priceCents: body.price, at: now },
          context,
        )
      ).state;
    }
  }
  return { ...person, tierIds: [...state.tiers.keys()], postIds: [] };
}

/** The creator's `n`-th post (every third one public). */
export async function publish(env: SeedEnv, creator: Creator, n: number, now: Date): Promise<void> {
  const post = {
    creatorId: creator.id,
    title: `${pick(TOPICS, n)} #${n + 1}`,
    content: `Notes from ${creator.firstName}: part ${n + 1}.`,
    mediaUrl: null,
    isPublic: n % 3 === 0,
  };
  const postId = newId();
  await publishPost(env.store, post, as(creator.id, now), postId);
  creator.postIds.push(postId);
}
