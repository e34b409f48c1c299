import VerifiedUser from '@mui/icons-material/VerifiedUser';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { nanoid } from '@reduxjs/toolkit';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { DEV_TOKEN_PREFIX, manualCardSchema } from '@contracts/accounts';
import { serverErrorText } from '@/lib/api';
import { toast } from '@/components/toast';
import { useVerifyAgeMutation } from './membership-api';
import { useDocumentTitle } from '@/lib/use-document-title';

/**
 * /verify-age (SPEC §2: the redirect target when age verification is required; designed here):
 * a zero-value authorization on the card on file, or on another card, confirms an adult card
 * holder. No charge is made. Success returns to the subscribe page.
 */
export function VerifyAgePage() {
  useDocumentTitle('Verify Your Age');
  const navigate = useNavigate();
  const [verify, { isLoading }] = useVerifyAgeMutation();
  const [card, setCard] = useState({ cardNumber: '', expiry: '', cvv: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const run = async (paymentToken?: string) => {
    setFailure(null);
    try {
      const answer = await verify(paymentToken ? { paymentToken } : {}).unwrap();
      toast({ title: 'Age Verified', description: answer.message });
      navigate('/subscribe');
    } catch (error) {
      setFailure(serverErrorText(error) ?? 'Age verification failed. Please try again.');
    }
  };

  const submitCard = (event: FormEvent) => {
    event.preventDefault();
    const parsed = manualCardSchema(new Date()).safeParse(card);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0] ?? 'card')] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    // The card fields never leave the browser: a development placeholder token stands in (SPEC §4).
    void run(`${DEV_TOKEN_PREFIX}${nanoid(24)}`);
  };

  return (
    <Box sx={{ px: 2, py: { xs: 3, md: 6 }, display: 'flex', justifyContent: 'center' }}>
      <Card sx={{ width: '100%', maxWidth: 520 }} elevation={3}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Stack spacing={2.5}>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
              <VerifiedUser color="primary" fontSize="large" />
              <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
                Verify Your Age
              </Typography>
            </Stack>
            <Typography color="textSecondary">
              Lively is for adults only. A card authorization confirms you are an adult card holder. It is a $0.00
              authorization: nothing is charged.
            </Typography>
            {failure && <Alert severity="error">{failure}</Alert>}
            <Button variant="contained" size="large" onClick={() => run()} disabled={isLoading}>
              {isLoading ? 'Verifying...' : 'Verify with my card on file'}
            </Button>
            <Divider>or use another card</Divider>
            <Stack component="form" spacing={2} onSubmit={submitCard} noValidate>
              <TextField
                label="Card number"
                value={card.cardNumber}
                onChange={(e) => setCard({ ...card, cardNumber: e.target.value })}
                error={!!errors.cardNumber}
                helperText={errors.cardNumber ?? errors.card}
                autoComplete="cc-number"
              />
              <Stack direction="row" spacing={2}>
                <TextField
                  label="Expiration (MM/YY)"
                  value={card.expiry}
                  onChange={(e) => setCard({ ...card, expiry: e.target.value })}
                  error={!!errors.expiry}
                  helperText={errors.expiry}
                  autoComplete="cc-exp"
                  fullWidth
                />
                <TextField
                  label="CVV"
                  value={card.cvv}
                  onChange={(e) => setCard({ ...card, cvv: e.target.value })}
                  error={!!errors.cvv}
                  helperText={errors.cvv}
                  autoComplete="cc-csc"
                  fullWidth
                />
              </Stack>
              <Button type="submit" variant="outlined" disabled={isLoading}>
                Verify with this card
              </Button>
            </Stack>
            <Button component={RouterLink} to="/subscribe" variant="text">
              Back to Subscribe
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
