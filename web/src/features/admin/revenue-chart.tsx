import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { useRevenueQuery } from './admin-api';

/** Platform revenue per day (last 30 days): platform fees, site plan revenue, conversion and payout fees. */
export function RevenueChart() {
  const { data, isLoading, error } = useRevenueQuery({});
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Revenue per day
        </Typography>
        {isLoading ? (
          <Skeleton variant="rectangular" height={260} />
        ) : error || !data ? (
          <Alert severity="error">Could not load revenue.</Alert>
        ) : (
          <BarChart
            height={280}
            xAxis={[{ scaleType: 'band', data: data.map((day) => day.date.slice(5)) }]}
            series={[
              { label: 'Platform fees', data: data.map((day) => Number(day.platformFees)), stack: 'revenue' },
              {
                label: 'Subscription revenue',
                data: data.map((day) => Number(day.subscriptionRevenue)),
                stack: 'revenue',
              },
              { label: 'Conversion fees', data: data.map((day) => Number(day.conversionFees)), stack: 'revenue' },
              { label: 'Payout fees', data: data.map((day) => Number(day.payoutFees)), stack: 'revenue' },
            ]}
          />
        )}
      </CardContent>
    </Card>
  );
}
