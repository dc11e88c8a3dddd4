import { HANDLE_MAX, HANDLE_MIN, handleText } from '@forum/contracts';
import { Button, InputAdornment, Stack, TextField } from '@mui/material';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { useState, type FormEvent } from 'react';
import { useToast } from '../../../components/toast/ToastProvider';
import { serverError } from '../../../lib/http-error';
import { useUpdateMeMutation } from '../api/update-me';

/** The handle's rules in a line, under the field until there is a problem to say. */
export const HANDLE_HINT = `${HANDLE_MIN} to ${HANDLE_MAX} letters a-z, digits and _, with a single . or - between them. Others @mention you by it.`;

/** Said by the field when another member holds the handle and the server gave no message of its own. */
const TAKEN = 'That handle is taken';

interface ChangeHandleProps {
  /** The member's handle now (null until the forum has given them one). */
  current: string | null;
  /** The handle the server accepted, to show before the profile is read again. */
  onChanged: (handle: string) => void;
}

/**
 * My Profile's handle: the field (checked as PATCH /api/me checks it, contracts' handleText) and
 * 'Save handle'. A problem, the form's own or the server's (a field message, 409 HANDLE_TAKEN), is
 * said by the field and saves nothing; typing again clears it.
 */
export function ChangeHandle({ current, onChanged }: ChangeHandleProps) {
  const [handle, setHandle] = useState(current ?? '');
  const [problem, setProblem] = useState<string>();
  const [updateMe, { isLoading }] = useUpdateMeMutation();
  const toast = useToast();
  const typed = handle.trim();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (typed === current) return;
    const parsed = handleText().safeParse(typed);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message);
      return;
    }
    try {
      await updateMe({ handle: parsed.data }).unwrap();
    } catch (error) {
      const server = serverError(error as FetchBaseQueryError);
      const onField = server?.code === 'HANDLE_TAKEN' ? server.message || TAKEN : server?.fields.handle?.[0];
      if (onField) setProblem(onField);
      else toast({ message: server?.message ?? 'Failed to change your handle', severity: 'error' });
      return;
    }
    toast({ message: `Your handle is now @${parsed.data}` });
    onChanged(parsed.data);
  };

  return (
    <Stack
      component="form"
      onSubmit={(event) => void submit(event)}
      noValidate
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ alignItems: { sm: 'flex-start' } }}
    >
      <TextField
        label="Handle"
        value={handle}
        onChange={(event) => {
          setHandle(event.target.value);
          setProblem(undefined);
        }}
        error={!!problem}
        helperText={problem ?? HANDLE_HINT}
        autoComplete="username"
        fullWidth
        slotProps={{
          input: { startAdornment: <InputAdornment position="start">@</InputAdornment> },
          htmlInput: { autoCapitalize: 'none', spellCheck: false },
        }}
      />
      <Button type="submit" variant="outlined" loading={isLoading} disabled={typed === current} sx={{ flexShrink: 0, mt: { sm: 1 } }}>
        Save handle
      </Button>
    </Stack>
  );
}
