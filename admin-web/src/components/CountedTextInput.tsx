import { characterCount, type TextKind } from '@forum/contracts';
import { Box } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { useMemo } from 'react';
import { FormDataConsumer, TextInput, type TextInputProps, type Validator } from 'react-admin';


/**
 * A polite live region with a counter's announcement (contracts' characterCount): it changes only
 * when the text nears, reaches or passes its limit, so a screen reader is told then, not at every key.
 */
export function CountAnnouncement({ announcement }: { announcement: string }) {
  return (
    <Box component="span" role="status" sx={visuallyHidden}>
      {announcement}
    </Box>
  );
}

/** A react-admin validator: at most `max` characters, counted as the API counts them; the message says by how much. */
export const maxCharacters =
  (max: number, kind: TextKind): Validator =>
  (value: unknown) => {
    const count = characterCount(typeof value === 'string' ? value : '', max, kind);
    return count.over ? count.text : undefined;
  };

/**
 * A react-admin text input with a live count of its characters against `max` as its helper text
 * (the field's description). Over the limit it is in error at once (the form validates on change),
 * its message saying by how much.
 */
export function CountedTextInput({ max, kind = 'line', validate = [], ...props }: TextInputProps & { max: number; kind?: TextKind }) {
  const validators = useMemo(() => [...(Array.isArray(validate) ? validate : [validate]), maxCharacters(max, kind)], [validate, max, kind]);
  return (
    <FormDataConsumer>
      {({ formData }) => {
        const value: unknown = (formData as Record<string, unknown>)[props.source];
        const count = characterCount(typeof value === 'string' ? value : '', max, kind);
        return (
          <>
            <TextInput {...props} validate={validators} helperText={count.text} />
            <CountAnnouncement announcement={count.announcement} />
          </>
        );
      }}
    </FormDataConsumer>
  );
}
