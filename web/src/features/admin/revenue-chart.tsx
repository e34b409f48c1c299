import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { usd } from '@/lib/format';
import { useRevenueQuery } from './admin-api';

/** The tooltip gives what went out as the amount paid ($15.00): the bar below zero already says which way. */
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
            series={[
              { label: 'Platform fees', data: days.map((day) => Number(day.platformFees)), stack: 'revenue' },
              {
                label: 'Subscription revenue',
                data: days.map((day) => Number(day.subscriptionRevenue)),
                stack: 'revenue',
              },
              { label: 'Conversion fees', data: days.map((day) => Number(day.conversionFees)), stack: 'revenue' },
              { label: 'Payout fees', data: days.map((day) => Number(day.payoutFees)), stack: 'revenue' },
              // The API gives what was paid as positive amounts: negated, they stack below zero.
              {
                label: 'Refunds',
                data: days.map((day) => -Number(day.refunds)),
                stack: 'costs',
                color: '#dc2626',
                valueFormatter: paidOut,
              },
              {
                label: 'Chargeback fees',
                data: days.map((day) => -Number(day.chargebackFees)),
                stack: 'costs',
                color: '#f97316',
                valueFormatter: paidOut,
              },
            ]}
          />
        )}
      </CardContent>
    </Card>
  );
}
