import Add from '@mui/icons-material/Add';
import { checkText, NEW_TAG_NAME_RULE } from '@forum/contracts';
import { Button, InputAdornment, Stack } from '@mui/material';
import { useState, type FormEvent, type Ref } from 'react';
import { useDataProvider } from 'react-admin';
import { CountedFilledField } from '@forum/web-ui';
import { serverCode, serverDetails, serverFieldMessages, type ForumDataProvider } from '../../dataProvider';
import type { TagOutcome } from './types';

/** What the admin typed, as a tag's name: the # is the page's, not part of the name. */
const tagName = (typed: string) => typed.trim().replace(/^#+/, '').trim();

/**
 * Why a tag was not added: a name taken (ignoring case) names the tag that has it, in its own
 * spelling. The details' schema (and zod with it) loads with this refusal, not with the dashboard.
 */
async function failureOf(failure: unknown): Promise<string> {
  if (serverCode(failure) !== 'TAG_EXISTS') return 'Failed to add tag';
  const exists = await import('./tagExistsDetails').then(
    ({ TagExistsDetails }) => TagExistsDetails.safeParse(serverDetails(failure)),
    () => null,
  );
  return exists?.success ? `Failed to add tag: #${exists.data.tag.name} already exists` : 'Failed to add tag';
}

/**
 * Spec §2 Manage Tags: 'Enter new tag' and 'Add Tag'. The name is counted against NEW_TAG_NAME_RULE
 * as the API counts it (no `maxlength`: it would cut a pasted name without a word) and checked by the
 * rule before it is sent: a name the rule refuses gets the rule's message on the field, as does one
 * the server refuses. The command is pessimistic (`onOutcome` hears the server's answer, and nothing
 * once the admin types again) and the tags are read again after it.
 */
export function AddTagForm({
  inputRef,
  onAdded,
  onOutcome,
}: {
  inputRef?: Ref<HTMLInputElement>;
  onAdded: () => unknown;
  onOutcome: (outcome: TagOutcome) => void;
}) {
  const dataProvider = useDataProvider<ForumDataProvider>();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const verdict = checkText(tagName(value), NEW_TAG_NAME_RULE);
    if (!verdict.ok) {
      setError(verdict.message);
      return;
    }
    const name = verdict.value;
    setPending(true);
    onOutcome(null);
    try {
      await dataProvider.addTag(name);
      onOutcome({ severity: 'success', text: 'Tag added successfully' });
      setValue('');
      await onAdded();
    } catch (failure) {
      setError(serverFieldMessages(failure).name ?? null);
      onOutcome({ severity: 'error', text: await failureOf(failure) });
    } finally {
      setPending(false);
    }
  };

  return (
    <Stack
      component="form"
      noValidate
      onSubmit={(event) => void submit(event)}
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1.5}
      sx={{ alignItems: { sm: 'flex-start' } }}
    >
      <CountedFilledField
        inputRef={inputRef}
        label="Enter new tag"
        size="small"
        required
        value={value}
        rule={NEW_TAG_NAME_RULE}
        counted={tagName(value)}
        error={error !== null}
        helperText={error}
        onChange={(event) => {
          setValue(event.target.value);
          setError(null);
          onOutcome(null);
        }}
        sx={{ flex: 1, maxWidth: { sm: 360 } }}
        slotProps={{
          input: { startAdornment: <InputAdornment position="start">#</InputAdornment> },
          htmlInput: { autoComplete: 'off' },
        }}
      />
      <Button type="submit" variant="contained" startIcon={<Add />} loading={pending} loadingPosition="start" sx={{ whiteSpace: 'nowrap', minHeight: 48 }}>
        Add Tag
      </Button>
    </Stack>
  );
}
