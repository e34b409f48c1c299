import { creatorEarningsProcess } from '../../domain/creators/earnings-process';
import { creatorSubscriptionStream } from '../../domain/creators/events';
import { subscribeToCreator } from '../../domain/creators/subscribe';
import { messageDecider } from '../../domain/messaging/decider';
import { messageStream } from '../../domain/messaging/events';
import { unlockMessage } from '../../domain/messaging/unlock';
import { postDecider } from '../../domain/posts/decider';
import { postStream } from '../../domain/posts/events';
import { handleCommand } from '../../domain/shared/command-handler';
import { newId } from '../../domain/shared/ids';
import type { Creator } from './creators';
import { as, type SeedEnv } from './env';
import { lastOfType } from './money';
import { pick } from './names';
import type { Person } from './people';

/**
 * A tier subscription charged to the member's card, and the creator's earnings credit the
 * creator-earnings process manager makes of it (idempotent by the subscription).
 */
export async function subscribe(env: SeedEnv, member: Person, creator: Creator, k: number, now: Date): Promise<void> {
  const input = {
    subscriberId: member.id,
    creatorId: creator.id,
    tierId: pick(creator.tierIds, k),
    customerId: member.customerId,
  };
  await subscribeToCreator(env.store, env.payments, input, as(member.id, now));
  const started = await lastOfType(env, creatorSubscriptionStream(member.id, creator.id), 'CreatorSubscriptionStarted');
  await creatorEarningsProcess.handle(started, { store: env.store, now });
}

export async function like(env: SeedEnv, member: Person, postId: string, now: Date): Promise<void> {
  await handleCommand(
    env.store,
    postStream(postId),
    postDecider,
    { type: 'ToggleLike', postId, userId: member.id, at: now },
    as(member.id, now),
  );
}

async function send(
  env: SeedEnv,
  from: Person,
  to: Person,
  fromCreator: boolean,
  content: string,
  priceCents: number | null,
  now: Date,
): Promise<string> {
  const messageId = newId();
  const command = {
    type: 'SendMessage' as const,
    messageId,
    senderId: from.id,
    senderIsCreator: fromCreator,
    receiverId: to.id,
    content,
    priceCents,
    at: now,
  };
  await handleCommand(env.store, messageStream(messageId), messageDecider, command, as(from.id, now));
  return messageId;
}

/**
 * A member writes to a creator and gets an answer; a paid answer is unlocked from the
 * member's balance (when `unlock`), and the creator is credited its share.
 */
export async function converse(
  env: SeedEnv,
  member: Person,
  creator: Creator,
  round: string,
  paid: boolean,
  unlock: boolean,
  now: Date,
): Promise<void> {
  await send(env, member, creator, false, `Loved the last post (${round})!`, null, now);
  const reply = new Date(now.getTime() + 60_000);
  const messageId = await send(
    env,
    creator,
    member,
    true,
    `Thanks! Here is something special (${round}).`,
    paid ? 299 : null,
    reply,
  );
  if (!paid || !unlock) return;
  const opened = new Date(reply.getTime() + 60_000);
  await unlockMessage(env.store, member.id, messageId, as(member.id, opened));
  await creatorEarningsProcess.handle(await lastOfType(env, messageStream(messageId), 'MessageUnlocked'), {
    store: env.store,
    now: opened,
  });
}
