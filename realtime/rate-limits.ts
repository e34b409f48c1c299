/**
 * Per-user limits on what costs other members most: joining the queue and skipping (cycling
 * through partners). A token bucket per user and action: `perMinute` tokens, refilled evenly, so
 * a burst of that many is allowed and then one more every 60/perMinute seconds. Pure: time comes in.
 */
export interface ChatRateLimits {
  joinsPerMinute: number;
  skipsPerMinute: number;
}

export const CHAT_RATE_LIMITS: ChatRateLimits = { joinsPerMinute: 30, skipsPerMinute: 60 };

const MINUTE_MS = 60_000;

export class PerUserRateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perMinute: number) {}

  /** Takes one token for `userId` if there is one. */
  take(userId: string, now: number): boolean {
    if (this.perMinute === Infinity) return true;
    const bucket = this.buckets.get(userId);
    const tokens = bucket
      ? Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) * this.perMinute) / MINUTE_MS)
      : this.perMinute;
    if (tokens < 1) return false;
    this.buckets.set(userId, { tokens: tokens - 1, at: now });
    return true;
  }

  /** Forgets users whose bucket is full again (nothing to remember): keeps the map to active users. */
  sweep(now: number): void {
    for (const [userId, bucket] of this.buckets) if (now - bucket.at >= MINUTE_MS) this.buckets.delete(userId);
  }

  size(): number {
    return this.buckets.size;
  }
}
