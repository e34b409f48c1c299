import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Alert from '@mui/material/Alert';
import { useState } from 'react';
import { isAdult, UNDER_AGE_MESSAGE, VERIFICATION_FILE_BYTES, verificationFieldsSchema } from '@contracts/verification';
import { isApiError, isUnauthorized, serverErrorText } from '@/lib/api';
import { useSubmitVerificationMutation } from '@/lib/verification-api';
import { PhotoPicker } from './photo-picker';

type Errors = Partial<Record<'legalName' | 'dateOfBirth' | 'document' | 'selfie' | 'form', string>>;

const TOO_LARGE = `Photos may be at most ${VERIFICATION_FILE_BYTES / 1024 / 1024} MB`;

/** What the form would be refused for before sending it (the server checks all of it again). */
function check(legalName: string, dateOfBirth: string, document: File | null, selfie: File | null): Errors {
  const errors: Errors = {};
  const parsed = verificationFieldsSchema.safeParse({ legalName, dateOfBirth });
  if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path[0] as 'legalName'] ??= issue.message;
  else if (!isAdult(parsed.data.dateOfBirth, new Date())) errors.dateOfBirth = UNDER_AGE_MESSAGE;
  if (!document) errors.document = 'A photo of your ID document is required';
  else if (document.size > VERIFICATION_FILE_BYTES) errors.document = TOO_LARGE;
  if (!selfie) errors.selfie = 'A selfie is required';
  else if (selfie.size > VERIFICATION_FILE_BYTES) errors.selfie = TOO_LARGE;
  return errors;
}

/** The server's refusal as field errors: 400 fields, a 415/413 on the photos, else the form's message. */
function serverErrors(error: unknown): Errors {
  if (!isApiError(error)) return { form: 'Could not send your verification. Please try again.' };
  const body = error.bodyJson as { fields?: Errors } | undefined;
  if (error.status === 400 && body?.fields) return body.fields;
  const text = serverErrorText(error) ?? 'Could not send your verification. Please try again.';
  if (error.status === 415) return { form: `${text}: send photos (JPEG, PNG, WebP or HEIC)` };
  return { form: text };
}

/** Legal name, date of birth, ID document photo and selfie, sent as one multipart form. */
export function VerificationForm() {
  const [legalName, setLegalName] = useState('');
  const [dateOfBirth, setDateOfBirth] = useState('');
  const [document, setDocument] = useState<File | null>(null);
  const [selfie, setSelfie] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [submit, { isLoading }] = useSubmitVerificationMutation();
  /** A field's setter that also clears that field's error (it is checked again on submit). */
  const edit =
    <T,>(name: keyof Errors, set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setErrors(({ [name]: _cleared, ...rest }) => rest);
    };
  const setName = edit('legalName', setLegalName);
  const setBirth = edit('dateOfBirth', setDateOfBirth);

  const send = async (event: React.FormEvent) => {
    event.preventDefault();
    const found = check(legalName, dateOfBirth, document, selfie);
    setErrors(found);
    if (Object.keys(found).length) return;
    const form = new FormData();
    form.append('legalName', legalName.trim());
    form.append('dateOfBirth', dateOfBirth);
    form.append('document', document!);
    form.append('selfie', selfie!);
    try {
      await submit(form).unwrap();
    } catch (error) {
      if (!isUnauthorized(error)) setErrors(serverErrors(error));
    }
  };

  return (
    <form noValidate onSubmit={send} aria-label="Identity verification">
      <Stack spacing={3}>
        {errors.form && <Alert severity="error">{errors.form}</Alert>}
        <TextField
          label="Legal name"
          required
          value={legalName}
          onChange={(event) => setName(event.target.value)}
          error={Boolean(errors.legalName)}
          helperText={errors.legalName ?? 'As it is written on your ID document'}
          autoComplete="name"
        />
        <TextField
          label="Date of birth"
          type="date"
          required
          value={dateOfBirth}
          onChange={(event) => setBirth(event.target.value)}
          error={Boolean(errors.dateOfBirth)}
          helperText={errors.dateOfBirth ?? 'You must be 18 or older'}
          slotProps={{ inputLabel: { shrink: true } }}
          autoComplete="bday"
        />
        <PhotoPicker
          label="ID document"
          hint="A clear photo of your passport, ID card or driving licence."
          file={document}
          error={errors.document}
          onChange={edit('document', setDocument)}
        />
        <PhotoPicker
          label="Selfie"
          hint="A photo of your face, taken now, in good light."
          file={selfie}
          error={errors.selfie}
          onChange={edit('selfie', setSelfie)}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={isLoading}
          sx={{ minHeight: 44, alignSelf: 'flex-start' }}
        >
          {isLoading ? 'Sending...' : 'Submit for verification'}
        </Button>
      </Stack>
    </form>
  );
}
