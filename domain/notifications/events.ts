import type { DomainEvent } from '../shared/command-handler';

/**
 * Facts of a user's in-app notifications. The notifications themselves are derived from other
 * contexts' events (projections/notifications.ts); what the user does with them, reading them,
 * is a fact of its own on `notifications-<userId>`, so a rebuild reproduces the read state too.
 */
export const notificationsStream = (userId: string) => `notifications-${userId}`;

/** Either the listed notifications, or every one that arrived up to `upTo` (an ISO time), were read. */
export interface NotificationsReadData {
  userId: string;
  ids: string[] | null;
  upTo: string | null;
  at: string;
}

export type NotificationsRead = DomainEvent<'NotificationsRead', NotificationsReadData>;

export type NotificationsEvent = NotificationsRead;
