import { CONTACT_EMAIL_RULE, CONTACT_MESSAGE_RULE, CONTACT_NAME_RULE, ContactMessageRequest, fieldErrorsOf } from '@forum/contracts';
import { Alert, Paper, Stack, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { BusyButton } from '../../components/BusyButton';
import { CountedTextField, overLimit } from '@forum/web-ui';
import { useSendContactMessageMutation } from '../../features/contact';
import { serverError } from '../../lib/http-error';

type Outcome = { kind: 'sent' } | { kind: 'failed'; message: string } | null;
const EMPTY = { name: '', email: '', message: '' };
type Field = keyof typeof EMPTY;
const RULES = { name: CONTACT_NAME_RULE, email: CONTACT_EMAIL_RULE, message: CONTACT_MESSAGE_RULE } as const;
const FIELDS = Object.keys(EMPTY) as Field[];

/** Spec §2 Static pages: name, email and message, all required; 'Send Message' sends them to the forum's team. */
export function ContactPage() {
  const [send, { isLoading }] = useSendContactMessageMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [values, setValues] = useState(EMPTY);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isLoading) return;
    // the API's own checks first, so a refusal needs no round trip; a field over its limit says so on its
    // counter ('N characters too many'), which would only be repeated by the check's message
    const over = FIELDS.filter((name) => overLimit(values[name], RULES[name]));
    const parsed = ContactMessageRequest.safeParse(values);
    if (over.length > 0 || !parsed.success) {
      const problems = parsed.success ? {} : fieldErrorsOf(parsed.error);
      for (const name of over) delete problems[name];
      setFields(problems);
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
    const onTheFields = FIELDS.some((name) => fieldErrors[name]?.length);
    setOutcome(onTheFields ? null : { kind: 'failed', message: problem?.message ?? 'Your message could not be sent. Please try again.' });
  };

  const field = (name: Field) => ({
    name,
    value: values[name],
    rule: RULES[name],
    onChange: (event: { target: { value: string } }) => {
      setValues((current) => ({ ...current, [name]: event.target.value }));
      // what was said of the last attempt is not said of the next one
      setOutcome(null);
    },
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
      <Stack component="form" spacing={2} onSubmit={(event) => void submit(event)} noValidate={false}>
        <CountedTextField {...field('name')} label="Name" required autoComplete="name" />
        <CountedTextField {...field('email')} label="Email" type="email" required autoComplete="email" />
        <CountedTextField {...field('message')} label="Message" required multiline minRows={4} maxRows={14} />
        <div aria-live="polite">
          {outcome?.kind === 'sent' && <Alert severity="success">Thank you! Your message has been sent. We will get back to you soon.</Alert>}
          {outcome?.kind === 'failed' && <Alert severity="error">{outcome.message}</Alert>}
        </div>
        {/* a click (Enter in a field clicks it too) is a new attempt, also one the browser refuses before any
            submit reaches the page (a required field left empty): what was said of the last one goes */}
        <BusyButton type="submit" variant="contained" busy={isLoading} onClick={() => setOutcome(null)} sx={{ alignSelf: 'flex-start' }}>
          {isLoading ? 'Sending...' : 'Send Message'}
        </BusyButton>
      </Stack>
    </Paper>
  );
}
