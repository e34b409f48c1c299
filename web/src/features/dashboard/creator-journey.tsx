import AutoAwesome from '@mui/icons-material/AutoAwesome';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { registerCreatorSchema } from '@contracts/creators';
import { toast } from '@/components/toast';
import { isUnauthorized } from '@/lib/api';
import { useRegisterCreatorMutation } from '@/lib/creators-api';

/** Non-creators (SPEC §2 Dashboard): an intro, then the Start Your Creator Journey form. */
export function CreatorJourney() {
  const [open, setOpen] = useState(false);
  const [bio, setBio] = useState('');
  const [coverImageUrl, setCoverImageUrl] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [register, { isLoading }] = useRegisterCreatorMutation();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = registerCreatorSchema.safeParse({ bio, coverImageUrl });
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      setErrors(fields);
      return;
    }
    setErrors({});
    try {
      await register({
        bio: parsed.data.bio,
        ...(parsed.data.coverImageUrl ? { coverImageUrl: parsed.data.coverImageUrl } : {}),
      }).unwrap();
      toast({
        title: 'Welcome, Creator!',
        description: 'Your creator profile is live. Create your first post to get started.',
      });
    } catch (error) {
      if (!isUnauthorized(error))
        toast({
          title: 'Error',
          description: 'Failed to register as creator. Please try again.',
          variant: 'destructive',
        });
    }
  };

  return (
    <Container maxWidth="sm" sx={{ py: 6 }}>
      <Card elevation={3}>
        <CardContent sx={{ p: 4 }}>
          <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
            <AutoAwesome color="secondary" sx={{ fontSize: 48 }} />
            <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
              Become a Creator
            </Typography>
            <Typography color="textSecondary">
              Publish public and subscriber-only posts, offer subscription tiers, send paid messages and keep 90% of
              everything you earn.
            </Typography>
          </Stack>
          {!open ? (
            <Box sx={{ textAlign: 'center', mt: 3 }}>
              <Button variant="contained" size="large" onClick={() => setOpen(true)}>
                Start Your Creator Journey
              </Button>
            </Box>
          ) : (
            <Stack component="form" noValidate onSubmit={submit} spacing={2} sx={{ mt: 3 }}>
              <TextField
                label="Bio"
                required
                multiline
                minRows={4}
                value={bio}
                onChange={(event) => setBio(event.target.value)}
                error={Boolean(errors.bio)}
                helperText={errors.bio ?? 'Tell members what you create.'}
                placeholder="Tell your future subscribers about yourself and your content..."
              />
              <TextField
                label="Cover Image URL (optional)"
                value={coverImageUrl}
                onChange={(event) => setCoverImageUrl(event.target.value)}
                error={Boolean(errors.coverImageUrl)}
                helperText={errors.coverImageUrl}
                placeholder="https://example.com/cover.jpg"
              />
              <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                <Button onClick={() => setOpen(false)} disabled={isLoading}>
                  Cancel
                </Button>
                <Button type="submit" variant="contained" disabled={isLoading}>
                  {isLoading ? 'Becoming Creator...' : 'Become Creator'}
                </Button>
              </Stack>
            </Stack>
          )}
        </CardContent>
      </Card>
    </Container>
  );
}
