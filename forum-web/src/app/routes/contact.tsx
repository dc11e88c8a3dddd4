import { Alert, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';

/** Spec §2 Static pages: what a sent message does is not shown, so nothing leaves the page yet. */
export function ContactPage() {
  const [sent, setSent] = useState(false);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.currentTarget.reset();
    setSent(true);
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 } }}>
      <title>Contact · Forum</title>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800, mb: 3 }}>
        Contact us
      </Typography>
      <Stack component="form" spacing={2} onSubmit={submit} onChange={() => setSent(false)}>
        <TextField name="name" label="Name" required autoComplete="name" />
        <TextField name="email" label="Email" type="email" required autoComplete="email" />
        <TextField name="message" label="Message" required multiline minRows={4} />
        {sent && <Alert severity="success">Thank you, your message was received.</Alert>}
        <Button type="submit" variant="contained" sx={{ alignSelf: 'flex-start' }}>
          Send Message
        </Button>
      </Stack>
    </Paper>
  );
}
