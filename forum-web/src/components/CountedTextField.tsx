import { characterCount, type TextKind } from '@forum/contracts';
import { Box, TextField, type TextFieldProps } from '@mui/material';
import { visuallyHidden } from '@mui/utils';

export type CountedTextFieldProps = Omit<TextFieldProps, 'value'> & {
  value: string;
  /** The most characters the API takes (a limit of contracts). */
  max: number;
  /** How the API counts the text (contracts' text policy): 'body' for multi-line texts. */
  kind?: TextKind;
};

/**
 * A text field with a live count of its characters against `max`, counted as the API counts them
 * (contracts' characterCount). The count is the field's description, read with it; over the limit
 * the field is in error; a polite live region tells a screen reader when the text nears, reaches
 * or passes the limit, not at every key. A message in `helperText` (the form's or the server's)
 * comes before the count. No `maxlength`: the browser counts UTF-16 units and would cut a paste
 * without a word.
 */
export function CountedTextField({ value, max, kind = 'line', helperText, error, ...props }: CountedTextFieldProps) {
  const count = characterCount(value, max, kind);
  return (
    <>
      <TextField
        {...props}
        value={value}
        error={Boolean(error) || count.over}
        helperText={
          <>
            {helperText && <Box component="span" sx={{ display: 'block' }}>{helperText} </Box>}
            <span>{count.text}</span>
          </>
        }
      />
      <Box component="span" role="status" sx={visuallyHidden}>
        {count.announcement}
      </Box>
    </>
  );
}
