import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { AnalyticsDay } from '@contracts/creator-insights';
import { usd } from '@/lib/format';

const HEIGHT = 260;

/** "03-14" for the axis: the window is at most 90 days, so the year adds nothing. */
const dayLabel = (day: AnalyticsDay) => day.date.slice(5);

/** Around eight labels whatever the window's length, so 90 days stay readable on a phone. */
const everyNth = (count: number) => (_: unknown, index: number) => index % Math.max(1, Math.ceil(count / 8)) === 0;

const dollars = (cents: number | null) => usd((cents ?? 0) / 100);

/** The creator's share per day, in dollars. */
export function EarningsChart({ daily }: { daily: AnalyticsDay[] }) {
  return (
    <LineChart
      height={HEIGHT}
      hideLegend
      xAxis={[{ scaleType: 'point', data: daily.map(dayLabel), tickLabelInterval: everyNth(daily.length) }]}
      yAxis={[{ valueFormatter: (value: number) => usd(value / 100).replace('.00', ''), width: 56 }]}
      series={[
        {
          label: 'Earnings',
          data: daily.map((day) => day.earningsCents),
          area: true,
          showMark: false,
          valueFormatter: dollars,
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
      xAxis={[{ scaleType: 'band', data: daily.map(dayLabel), tickLabelInterval: everyNth(daily.length) }]}
      yAxis={[{ tickMinStep: 1, width: 40 }]}
      series={[
        { label: 'Gained', data: daily.map((day) => day.subscribersGained), color: '#16a34a' },
        { label: 'Lost', data: daily.map((day) => day.subscribersLost), color: '#dc2626' },
      ]}
    />
  );
}
