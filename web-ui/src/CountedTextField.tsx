import { characterCount, textLength, type TextRule } from '@forum/contracts';
import { Box, TextField, type TextFieldProps } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import type { ReactNode } from 'react';

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

/**
 * Whether `value` is over its rule's limit, counted as the counter (and the API) counts it: a form
 * whose field is over sends nothing, and the counter's 'N characters too many' is the one message.
 */
export const overLimit = (value: string, rule: TextRule) => textLength(value, rule.kind) > rule.max;

/** What a counted field is given beside its own props: its rule, and what counts against it. */
export interface Counted {
  value: string;
  /** The field's rule in contracts: the most characters the API takes, and how it counts them. */
  rule: TextRule;
  /** What counts against the rule when it is not the value as typed (a tag's name without its '#'). */
  counted?: string;
}

export type CountedTextFieldProps = Omit<TextFieldProps, 'value'> & Counted;

/**
 * A counted field's error, helper text and announcement: over the limit the field is in error;
 * a message in `helperText` (the form's or the server's) comes before the count.
 */
export function useCount({ value, rule, counted = value, helperText, error }: Counted & { helperText?: ReactNode; error?: boolean }) {
  const count = characterCount(counted, rule.max, rule.kind);
  return {
    error: Boolean(error) || count.over,
    helperText: (
      <>
        {helperText && <span style={{ display: 'block' }}>{helperText} </span>}
        {count.text}
      </>
    ),
    announcement: count.announcement,
  };
}

/**
 * A text field with a live count of its characters against its rule's `max`, counted as the API counts them
 * (contracts' characterCount). The count is the field's description, read with it; over the limit
 * the field is in error; a polite live region tells a screen reader when the text nears, reaches
 * or passes the limit, not at every key. A message in `helperText` (the form's or the server's)
 * comes before the count. No `maxlength`: the browser counts UTF-16 units and would cut a paste
 * without a word.
 */
export function CountedTextField({ value, rule, counted, helperText, error, ...props }: CountedTextFieldProps) {
  const count = useCount({ value, rule, counted, helperText, error: Boolean(error) });
  return (
    <>
      <TextField {...props} value={value} error={count.error} helperText={count.helperText} />
      <CountAnnouncement announcement={count.announcement} />
    </>
  );
}
