import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import type { RevenueDay } from '@contracts/admin';
import { usd, usdShort } from '@/lib/format';
import { useRevenueQuery } from './admin-api';

/** What came in (stacked above zero) and what went out (below it), per day's field. */
const CAME_IN = [
  ['Platform fees', 'platformFees'],
  ['Subscription revenue', 'subscriptionRevenue'],
  ['Conversion fees', 'conversionFees'],
  ['Payout fees', 'payoutFees'],
] as const satisfies ReadonlyArray<readonly [string, keyof RevenueDay]>;
const WENT_OUT = [
  ['Refunds', 'refunds', '#dc2626'],
  ['Chargeback fees', 'chargebackFees', '#f97316'],
] as const satisfies ReadonlyArray<readonly [string, keyof RevenueDay, string]>;

/** Tooltips in dollars; what went out as the amount paid ($15.00): the bar below zero already says which way. */
const paidIn = (value: number | null) => usd(value ?? 0);
const paidOut = (value: number | null) => usd(-(value ?? 0));

/**
 * Platform revenue per day (last 30 days): platform fees, site plan revenue, conversion and payout
 * fees stacked above zero (what came in), refunds and chargeback fees stacked below zero (what went out).
 */
export function RevenueChart() {
  const { data, isLoading, error } = useRevenueQuery({});
  const days = data ?? [];
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Revenue per day
        </Typography>
        {error ? (
          <Alert severity="error">Could not load revenue.</Alert>
        ) : (
          // While loading, the chart itself (axes, legend, a loading overlay) holds the place: the
          // console below does not move when the days arrive (it moved 49 px, 107 px on a phone).
          <BarChart
            loading={isLoading}
            height={280}
            xAxis={[{ scaleType: 'band', data: days.map((day) => day.date.slice(5)) }]}
            yAxis={[{ valueFormatter: usdShort, width: 56 }]}
            series={[
              ...CAME_IN.map(([label, key]) => ({
                label,
                data: days.map((day) => Number(day[key])),
                stack: 'revenue',
                valueFormatter: paidIn,
              })),
              // The API gives what was paid as positive amounts: negated, they stack below zero.
              ...WENT_OUT.map(([label, key, color]) => ({
                label,
                data: days.map((day) => -Number(day[key])),
                stack: 'costs',
                color,
                valueFormatter: paidOut,
              })),
            ]}
          />
        )}
      </CardContent>
    </Card>
  );
}
