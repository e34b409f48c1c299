import { BarChart } from '@mui/x-charts/BarChart';
import type { AnalyticsDay } from '@contracts/creator-insights';
import { usd, usdShort } from '@/lib/format';

const HEIGHT = 260;

/** "03-14" for the axis: the window is at most 90 days, so the year adds nothing. */
const dayLabel = (day: AnalyticsDay) => day.date.slice(5);

/** About five ticks whatever the window's length, so even 90 days stay readable on a phone. */
const fewLabels = (count: number) => (_: unknown, index: number) => index % Math.max(1, Math.ceil(count / 5)) === 0;

const xAxisOf = (daily: AnalyticsDay[]) => [
  {
    scaleType: 'band' as const,
    data: daily.map(dayLabel),
    // Ticks (and so labels) on about five days only.
    tickInterval: fewLabels(daily.length),
  },
];

/** The creator's share per day, in dollars. */
export function EarningsChart({ daily }: { daily: AnalyticsDay[] }) {
  return (
    <BarChart
      height={HEIGHT}
      hideLegend
      xAxis={xAxisOf(daily)}
      yAxis={[{ valueFormatter: (cents: number) => usdShort(cents / 100), width: 56 }]}
      series={[
        {
          label: 'Earnings',
          data: daily.map((day) => day.earningsCents),
          color: '#7c3aed',
          valueFormatter: (cents: number | null) => usd((cents ?? 0) / 100),
        },
      ]}
    />
  );
}

/** Members gained and lost per day, side by side. */
export function SubscribersChart({ daily }: { daily: AnalyticsDay[] }) {
  return (
    <BarChart
      height={HEIGHT}
      xAxis={xAxisOf(daily)}
      yAxis={[{ tickMinStep: 1, width: 40 }]}
      series={[
        { label: 'Gained', data: daily.map((day) => day.subscribersGained), color: '#16a34a' },
        { label: 'Lost', data: daily.map((day) => day.subscribersLost), color: '#dc2626' },
      ]}
    />
  );
}
