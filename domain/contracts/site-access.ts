/**
 * Whether a member may use the site (SPEC §2 gates): an active membership, or a canceled one
 * until its paid period ends, or a past-due one during the renewal grace period (the users
 * read model keeps the moment access ends in subscriptionEndDate).
 */
export function hasSiteAccess(
  user: { subscriptionStatus: string; subscriptionEndDate?: string | null },
  now: Date = new Date(),
): boolean {
  if (user.subscriptionStatus === 'active') return true;
  if (user.subscriptionStatus !== 'canceled' && user.subscriptionStatus !== 'past_due') return false;
  return !!user.subscriptionEndDate && new Date(user.subscriptionEndDate) > now;
}
