import { Alert, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useSendContactMessageMutation } from '../../features/contact';
import { serverError } from '../../lib/http-error';

type Outcome = { kind: 'sent' } | { kind: 'failed'; message: string } | null;

/** Spec §2 Static pages: name, email and message, all required; 'Send Message' sends them to the forum's team. */
export function ContactPage() {
  const [send, { isLoading }] = useSendContactMessageMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const result = await send({ name: String(data.get('name') ?? ''), email: String(data.get('email') ?? ''), message: String(data.get('message') ?? '') });
    if ('data' in result) {
      form.reset();
      setFields({});
      setOutcome({ kind: 'sent' });
      return;
    }
    const problem = serverError(result.error);
    setFields(problem?.fields ?? {});
    setOutcome({ kind: 'failed', message: problem?.message ?? 'Your message could not be sent. Please try again.' });
  };

  const fieldError = (name: string) => fields[name]?.[0];
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 } }}>
      <title>Contact · Forum</title>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800, mb: 1 }}>
        Contact us
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Questions, ideas or a problem with the forum? Write to us and we will answer by email.
      </Typography>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate={false}>
        <TextField name="name" label="Name" required autoComplete="name" error={!!fieldError('name')} helperText={fieldError('name')} />
        <TextField name="email" label="Email" type="email" required autoComplete="email" error={!!fieldError('email')} helperText={fieldError('email')} />
        <TextField name="message" label="Message" required multiline minRows={4} error={!!fieldError('message')} helperText={fieldError('message')} />
        <div aria-live="polite">
          {outcome?.kind === 'sent' && <Alert severity="success">Thank you! Your message has been sent. We will get back to you soon.</Alert>}
          {outcome?.kind === 'failed' && <Alert severity="error">{outcome.message}</Alert>}
        </div>
        <Button type="submit" variant="contained" disabled={isLoading} sx={{ alignSelf: 'flex-start' }}>
          {isLoading ? 'Sending...' : 'Send Message'}
        </Button>
      </Stack>
    </Paper>
  );
}
