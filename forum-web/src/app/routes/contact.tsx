import { CONTACT_EMAIL_RULE, CONTACT_MESSAGE_RULE, CONTACT_NAME_RULE, ContactMessageRequest, fieldErrorsOf } from '@forum/contracts';
import { Alert, Paper, Stack, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { BusyButton } from '../../components/BusyButton';
import { CountedTextField } from '@forum/web-ui';
import { useSendContactMessageMutation } from '../../features/contact';
import { serverError } from '../../lib/http-error';

type Outcome = { kind: 'sent' } | { kind: 'failed'; message: string } | null;
const EMPTY = { name: '', email: '', message: '' };

/** Spec §2 Static pages: name, email and message, all required; 'Send Message' sends them to the forum's team. */
export function ContactPage() {
  const [send, { isLoading }] = useSendContactMessageMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [values, setValues] = useState(EMPTY);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isLoading) return;
    // the API's own checks first (lengths as its counters count), so a refusal needs no round trip
    const parsed = ContactMessageRequest.safeParse(values);
    if (!parsed.success) {
      setFields(fieldErrorsOf(parsed.error));
      setOutcome(null);
      return;
    }
    const result = await send(parsed.data);
    if ('data' in result) {
      setValues(EMPTY);
      setFields({});
      setOutcome({ kind: 'sent' });
      return;
    }
    const problem = serverError(result.error);
    const fieldErrors = problem?.fields ?? {};
    setFields(fieldErrors);
    // messages on the form's own fields say it all; the server's general words would only repeat them
    const onTheFields = Object.keys(EMPTY).some((name) => fieldErrors[name]?.length);
    setOutcome(onTheFields ? null : { kind: 'failed', message: problem?.message ?? 'Your message could not be sent. Please try again.' });
  };

  const field = (name: keyof typeof EMPTY) => ({
    name,
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
    error: !!fields[name]?.[0],
    helperText: fields[name]?.[0],
  });
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
        <CountedTextField {...field('name')} label="Name" required autoComplete="name" rule={CONTACT_NAME_RULE} />
        <CountedTextField {...field('email')} label="Email" type="email" required autoComplete="email" rule={CONTACT_EMAIL_RULE} />
        <CountedTextField {...field('message')} label="Message" required multiline minRows={4} maxRows={14} rule={CONTACT_MESSAGE_RULE} />
        <div aria-live="polite">
          {outcome?.kind === 'sent' && <Alert severity="success">Thank you! Your message has been sent. We will get back to you soon.</Alert>}
          {outcome?.kind === 'failed' && <Alert severity="error">{outcome.message}</Alert>}
        </div>
        <BusyButton type="submit" variant="contained" busy={isLoading} sx={{ alignSelf: 'flex-start' }}>
          {isLoading ? 'Sending...' : 'Send Message'}
        </BusyButton>
      </Stack>
    </Paper>
  );
}
