import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router';
import {
  ACTIVITIES,
  DEAL_BREAKERS,
  EXPERIENCE_LEVELS,
  GENDER_IDENTITIES,
  INTERESTS,
  KINKS,
  LOOKING_FOR_GENDERS,
  MUST_HAVES,
  PROFILE_FORM_DEFAULTS,
  RELATIONSHIP_TYPES,
  ROLES,
  SEXUAL_ORIENTATIONS,
  preferencesSchema,
  profileSchema,
} from '@contracts/chat';
import { api, type ApiDispatch } from '@/lib/api';
import { useToast } from '@/components/toast';
import { useDocumentTitle } from '@/lib/use-document-title';
import { optionLabel } from '@/lib/profile-labels';
import { ChatProfileImages } from './chat-profile-images';
import { useChatProfileQuery, useSavePreferencesMutation, useSaveProfileMutation } from './profile-api';
import { TagPicker } from './tag-picker';

type Form = typeof PROFILE_FORM_DEFAULTS;
type Errors = Partial<Record<keyof Form, string>>;

const STEPS = ['Basic Profile', 'Interests & Relationship Types', 'Sexual Preferences', 'Matching Preferences'];
/** Which step shows each field, to open the first step with an error after a failed submit. */
const STEP_OF: Record<keyof Form, number> = {
  displayName: 1,
  age: 1,
  location: 1,
  genderIdentity: 1,
  sexualOrientation: 1,
  bio: 1,
  relationshipType: 2,
  interests: 2,
  experienceLevel: 3,
  sexualActivities: 3,
  kinks: 3,
  rolePreferences: 3,
  ageRangeMin: 4,
  ageRangeMax: 4,
  maxDistance: 4,
  lookingForGenders: 4,
  dealBreakers: 4,
  mustHaves: 4,
  isPrivate: 4,
};

function errorsOf(form: Form): Errors {
  const errors: Errors = {};
  const collect = (issues: { path: PropertyKey[]; message: string }[]) => {
    for (const issue of issues) {
      const field = String(issue.path[0]) as keyof Form;
      errors[field] ??= issue.message;
    }
  };
  const profile = profileSchema.safeParse(form);
  if (!profile.success) collect(profile.error.issues);
  const preferences = preferencesSchema.safeParse(form);
  if (!preferences.success) collect(preferences.error.issues);
  return errors;
}

/** Profile setup (/profile-setup, SPEC §2): four steps, validated at submit, then /chat. */
export function ProfileSetupPage() {
  useDocumentTitle('Create Your Lively Chat Profile');
  const [step, setStep] = useState(1);
  const [form, setForm] = useState<Form>(PROFILE_FORM_DEFAULTS);
  const [errors, setErrors] = useState<Errors>({});
  const [failed, setFailed] = useState(false);
  const { data: profile } = useChatProfileQuery();
  const [saveProfile, profileState] = useSaveProfileMutation();
  const [savePreferences, preferencesState] = useSavePreferencesMutation();
  const saving = profileState.isLoading || preferencesState.isLoading;
  const navigate = useNavigate();
  const dispatch = useDispatch<ApiDispatch>();
  const { toast } = useToast();
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async () => {
    setFailed(false);
    const found = errorsOf(form);
    setErrors(found);
    const first = (Object.keys(found) as (keyof Form)[]).sort((a, b) => STEP_OF[a] - STEP_OF[b])[0];
    if (first) {
      setStep(STEP_OF[first]);
      return;
    }
    try {
      await saveProfile(profileSchema.parse(form)).unwrap();
      await savePreferences(preferencesSchema.parse(form)).unwrap();
    } catch {
      setFailed(true);
      return;
    }
    dispatch(api.util.invalidateTags(['CurrentUser']));
    toast({
      title: 'Profile Created!',
      description: 'Your lively chat profile is ready. You can now start matching with others!',
    });
    navigate('/chat');
  };

  const checkboxes = (field: 'relationshipType' | 'lookingForGenders', options: readonly string[], label: string) => (
    <Box>
      <Typography variant="subtitle2">{label}</Typography>
      <FormGroup row aria-label={label}>
        {options.map((option) => (
          <FormControlLabel
            key={option}
            label={optionLabel(option)}
            control={
              <Checkbox
                checked={(form[field] as string[]).includes(option)}
                onChange={(event) =>
                  set(
                    field,
                    (event.target.checked
                      ? [...form[field], option]
                      : form[field].filter((v) => v !== option)) as never,
                  )
                }
              />
            }
          />
        ))}
      </FormGroup>
      {errors[field] && <FormHelperText error>{errors[field]}</FormHelperText>}
    </Box>
  );

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 } }}>
      <Stack spacing={3}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800, textAlign: 'center' }}>
          Create Your Lively Chat Profile
        </Typography>
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'center' }} aria-label="Steps">
          {STEPS.map((name, index) => (
            <Box
              key={name}
              title={name}
              aria-current={step === index + 1 ? 'step' : undefined}
              sx={{
                width: 36,
                height: 36,
                borderRadius: '50%',
                display: 'grid',
                placeItems: 'center',
                fontWeight: 700,
                bgcolor: step >= index + 1 ? 'primary.main' : 'action.disabledBackground',
                color: step >= index + 1 ? 'primary.contrastText' : 'text.secondary',
              }}
            >
              {index + 1}
            </Box>
          ))}
        </Stack>
        {profile && <ChatProfileImages images={profile.profileImages} />}
        <Card>
          <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
            <Stack spacing={3}>
              <Typography variant="h6" component="h2">
                {STEPS[step - 1]}
              </Typography>
              {failed && <Alert severity="error">Failed to create profile. Please try again.</Alert>}

              {step === 1 && (
                <>
                  <TextField
                    label="Display Name"
                    value={form.displayName}
                    onChange={(e) => set('displayName', e.target.value)}
                    error={!!errors.displayName}
                    helperText={errors.displayName}
                  />
                  <TextField
                    label="Age"
                    type="number"
                    slotProps={{ htmlInput: { min: 18, max: 99 } }}
                    value={form.age}
                    onChange={(e) => set('age', e.target.value === '' ? ('' as never) : Number(e.target.value))}
                    error={!!errors.age}
                    helperText={errors.age}
                  />
                  <TextField
                    label="Location"
                    placeholder="City, State"
                    value={form.location}
                    onChange={(e) => set('location', e.target.value)}
                    error={!!errors.location}
                    helperText={errors.location}
                  />
                  <TextField
                    select
                    label="Gender Identity"
                    value={form.genderIdentity}
                    onChange={(e) => set('genderIdentity', e.target.value as Form['genderIdentity'])}
                    error={!!errors.genderIdentity}
                    helperText={errors.genderIdentity}
                  >
                    {GENDER_IDENTITIES.map((g) => (
                      <MenuItem key={g} value={g}>
                        {optionLabel(g)}
                      </MenuItem>
                    ))}
                  </TextField>
                  <TextField
                    select
                    label="Sexual Orientation"
                    value={form.sexualOrientation}
                    onChange={(e) => set('sexualOrientation', e.target.value as Form['sexualOrientation'])}
                    error={!!errors.sexualOrientation}
                    helperText={errors.sexualOrientation}
                  >
                    {SEXUAL_ORIENTATIONS.map((o) => (
                      <MenuItem key={o} value={o}>
                        {optionLabel(o)}
                      </MenuItem>
                    ))}
                  </TextField>
                  <TextField
                    label="Bio (optional)"
                    multiline
                    minRows={3}
                    value={form.bio}
                    onChange={(e) => set('bio', e.target.value)}
                    error={!!errors.bio}
                    helperText={errors.bio}
                  />
                </>
              )}

              {step === 2 && (
                <>
                  {checkboxes('relationshipType', RELATIONSHIP_TYPES, 'Relationship Types')}
                  <TagPicker
                    label="Interests"
                    options={INTERESTS}
                    value={form.interests}
                    onChange={(v) => set('interests', v)}
                  />
                </>
              )}

              {step === 3 && (
                <>
                  <TextField
                    select
                    label="Experience Level"
                    value={form.experienceLevel}
                    onChange={(e) => set('experienceLevel', e.target.value as Form['experienceLevel'])}
                  >
                    {EXPERIENCE_LEVELS.map((level) => (
                      <MenuItem key={level} value={level}>
                        {optionLabel(level)}
                      </MenuItem>
                    ))}
                  </TextField>
                  <TagPicker
                    label="Activities"
                    options={ACTIVITIES}
                    value={form.sexualActivities}
                    onChange={(v) => set('sexualActivities', v)}
                  />
                  <TagPicker label="Kinks" options={KINKS} value={form.kinks} onChange={(v) => set('kinks', v)} />
                  <TagPicker
                    label="Roles"
                    options={ROLES}
                    value={form.rolePreferences}
                    onChange={(v) => set('rolePreferences', v)}
                  />
                </>
              )}

              {step === 4 && (
                <>
                  <Stack direction="row" spacing={2}>
                    <TextField
                      label="Minimum Age"
                      type="number"
                      slotProps={{ htmlInput: { min: 18, max: 99 } }}
                      value={form.ageRangeMin}
                      onChange={(e) => set('ageRangeMin', Number(e.target.value))}
                      error={!!errors.ageRangeMin}
                      helperText={errors.ageRangeMin}
                      fullWidth
                    />
                    <TextField
                      label="Maximum Age"
                      type="number"
                      slotProps={{ htmlInput: { min: 18, max: 99 } }}
                      value={form.ageRangeMax}
                      onChange={(e) => set('ageRangeMax', Number(e.target.value))}
                      error={!!errors.ageRangeMax}
                      helperText={errors.ageRangeMax}
                      fullWidth
                    />
                  </Stack>
                  <Box>
                    <Typography variant="subtitle2" id="max-distance-label">
                      Maximum Distance: {form.maxDistance} miles
                    </Typography>
                    <Slider
                      aria-labelledby="max-distance-label"
                      min={1}
                      max={500}
                      step={5}
                      value={form.maxDistance}
                      onChange={(_e, v) => set('maxDistance', v as number)}
                    />
                    {errors.maxDistance && <FormHelperText error>{errors.maxDistance}</FormHelperText>}
                  </Box>
                  {checkboxes('lookingForGenders', LOOKING_FOR_GENDERS, 'Looking For')}
                  <TagPicker
                    label="Deal Breakers"
                    options={DEAL_BREAKERS}
                    value={form.dealBreakers}
                    onChange={(v) => set('dealBreakers', v)}
                    destructive
                  />
                  <TagPicker
                    label="Must Haves"
                    options={MUST_HAVES}
                    value={form.mustHaves}
                    onChange={(v) => set('mustHaves', v)}
                  />
                  <FormControlLabel
                    control={<Switch checked={form.isPrivate} onChange={(e) => set('isPrivate', e.target.checked)} />}
                    label="Private Profile"
                  />
                  <Typography variant="body2" color="textSecondary" sx={{ mt: -2 }}>
                    Hide some of your preferences from public view.
                  </Typography>
                </>
              )}

              <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
                <Button variant="outlined" disabled={step === 1} onClick={() => setStep((s) => Math.max(1, s - 1))}>
                  Previous
                </Button>
                {step < 4 ? (
                  <Button variant="contained" onClick={() => setStep((s) => Math.min(4, s + 1))}>
                    Next
                  </Button>
                ) : (
                  <Button
                    variant="contained"
                    disabled={saving}
                    onClick={submit}
                    startIcon={saving ? <CircularProgress size={18} color="inherit" /> : undefined}
                  >
                    Create Profile
                  </Button>
                )}
              </Stack>
            </Stack>
          </CardContent>
        </Card>
      </Stack>
    </Container>
  );
}
