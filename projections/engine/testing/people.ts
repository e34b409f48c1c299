import { userStream } from '../../../domain/accounts/events';
import type { EventStore } from '../../../domain/event-store/port';

/** A member registered as `firstName lastName` at `at`: the event a sign-up records, as the read models see it. */
export async function registerPerson(store: EventStore, userId: string, firstName: string, lastName: string, at: Date) {
  const data = {
    userId,
    email: `${firstName.toLowerCase()}@test.lively`,
    firstName,
    lastName,
    passwordHash: 'x',
    gatewayCustomerId: 'cus_test',
    cardLast4: '4242',
    registeredAt: at.toISOString(),
  };
  await store.append(userStream(userId), [{ type: 'UserRegistered', data }], { expectedRevision: 'any' });
}

/** The member's picture set from their media item `mediaId`. */
export async function setAvatar(store: EventStore, userId: string, mediaId: string, at: Date) {
  const data = {
    userId,
    mediaId,
    sourceMediaId: mediaId,
    crop: { x: 0, y: 0, width: 320, height: 320 },
    variant: 'w320.webp',
    at: at.toISOString(),
  };
  await store.append(`profile-images-${userId}`, [{ type: 'AvatarSet', data }], { expectedRevision: 'any' });
}
