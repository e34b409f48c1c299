import type { CreatorAnalytics } from '@contracts/creator-insights';

/** A stat card's trend line: the text and whether it reads as good, bad or neither. */
export interface Trend {
  text: string;
  tone: 'up' | 'down' | 'flat';
}

const signed = (value: number) => (value > 0 ? `+${value}` : String(value));
const toneOf = (change: number): Trend['tone'] => (change > 0 ? 'up' : change < 0 ? 'down' : 'flat');

/**
 * This period's total against the previous one as a percentage ("+12% from last 30 days"; with
 * `what`, "+12% likes and comments from last 30 days"). With nothing before there is no
 * percentage to give: "New this period", or `none` when both periods are empty.
 */
export function percentTrend(
  current: number,
  previous: number,
  days: number,
  { none, what }: { none: string; what?: string },
): Trend {
  if (previous === 0) return current === 0 ? { text: none, tone: 'flat' } : { text: 'New this period', tone: 'up' };
  const percent = Math.round(((current - previous) / Math.abs(previous)) * 100);
  if (percent === 0) return { text: `No change from last ${days} days`, tone: 'flat' };
  return { text: `${signed(percent)}%${what ? ` ${what}` : ''} from last ${days} days`, tone: toneOf(percent) };
}

/** A count that moved by `change` over the period: "+3 from last 30 days". */
export function countTrend(change: number, days: number, none = `No change from last ${days} days`): Trend {
  if (change === 0) return { text: none, tone: 'flat' };
  return { text: `${signed(change)} from last ${days} days`, tone: toneOf(change) };
}

/** The dashboard's four stat-card trends, from the analytics of the last `days` days and the ones before. */
export function statTrends({ days, current, previous }: CreatorAnalytics) {
  return {
    earnings: percentTrend(current.earningsCents, previous.earningsCents, days, {
      none: `No earnings in the last ${days} days`,
    }),
    subscribers: countTrend(current.subscribersGained - current.subscribersLost, days),
    posts: countTrend(current.postsPublished, days, `No new posts in the last ${days} days`),
    engagement: percentTrend(current.interactions, previous.interactions, days, {
      none: `No likes or comments in the last ${days} days`,
      what: 'likes and comments',
    }),
  };
}
