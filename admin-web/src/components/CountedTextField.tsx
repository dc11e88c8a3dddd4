import { characterCount, type TextRule } from '@forum/contracts';
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

export type CountedTextFieldProps = Omit<TextFieldProps, 'value'> & {
  value: string;
  /** The field's rule in contracts: the most characters the API takes, and how it counts them. */
  rule: TextRule;
  /** What counts against the rule when it is not the value as typed (a tag's name without its '#'). */
  counted?: string;
};

/**
 * A plain MUI text field (outside a react-admin form) with a live count of its characters against
 * its rule, counted as the API counts them, as its description; over the limit it is in error. A
 * message in `helperText` comes before the count. No `maxlength`: the browser counts UTF-16 units.
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
