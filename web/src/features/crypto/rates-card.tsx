import CurrencyExchange from '@mui/icons-material/CurrencyExchange';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CRYPTO_TYPES, RATES_REFRESH_MS } from '@contracts/crypto';
import { useCryptoRatesQuery } from './crypto-api';

/** Current Exchange Rates (SPEC §2): USDC and USDT to 4 decimals, refreshed every 30 s. */
export function RatesCard() {
  const { data, isLoading, isError } = useCryptoRatesQuery(undefined, { pollingInterval: RATES_REFRESH_MS });
  return (
    <Card variant="outlined" data-testid="rates-card">
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
          <CurrencyExchange color="primary" />
          <Typography variant="h6" component="h2" sx={{ fontWeight: 700 }}>
            Current Exchange Rates
          </Typography>
        </Stack>
        {isError && !data ? (
          <Alert severity="error">Unable to load exchange rates. Please try again later.</Alert>
        ) : (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {CRYPTO_TYPES.map((type) => (
              <Card key={type} variant="outlined" sx={{ flex: 1, p: 2 }}>
                <Typography variant="body2" color="textSecondary">
                  1 {type}
                </Typography>
                {isLoading || !data ? (
                  <Skeleton width={90} height={36} />
                ) : (
                  <Typography variant="h5" sx={{ fontWeight: 700 }} data-testid={`rate-${type}`}>
                    ${data[type]}
                  </Typography>
                )}
                <Typography variant="caption" color="textSecondary">
                  USD per coin
                </Typography>
              </Card>
            ))}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
