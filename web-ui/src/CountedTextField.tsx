import { characterCount, textLength, type TextRule } from '@forum/contracts';
import { Box, TextField, type TextFieldProps } from '@mui/material';
import { visuallyHidden } from '@mui/utils';

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

export type CountedTextFieldProps = Omit<TextFieldProps, 'value'> & {
  value: string;
  /** The field's rule in contracts: the most characters the API takes, and how it counts them. */
  rule: TextRule;
  /** What counts against the rule when it is not the value as typed (a tag's name without its '#'). */
  counted?: string;
};

/**
 * A text field with a live count of its characters against its rule's `max`, counted as the API counts them
 * (contracts' characterCount). The count is the field's description, read with it; over the limit
 * the field is in error; a polite live region tells a screen reader when the text nears, reaches
 * or passes the limit, not at every key. A message in `helperText` (the form's or the server's)
 * comes before the count. No `maxlength`: the browser counts UTF-16 units and would cut a paste
 * without a word.
 */
export function CountedTextField({ value, rule, counted = value, helperText, error, ...props }: CountedTextFieldProps) {
  const count = characterCount(counted, rule.max, rule.kind);
  return (
    <>
      <TextField
        {...props}
        value={value}
        error={Boolean(error) || count.over}
        helperText={
          <>
            {helperText && <span style={{ display: 'block' }}>{helperText} </span>}
            {count.text}
          </>
        }
      />
      <CountAnnouncement announcement={count.announcement} />
    </>
  );
}
