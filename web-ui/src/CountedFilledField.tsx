import { CountAnnouncement, useCount, type Counted } from './CountedTextField.tsx';
import { FilledTextField, type FilledTextFieldProps } from './FilledTextField.tsx';

export type CountedFilledFieldProps = Omit<FilledTextFieldProps, 'value'> & Counted;

/**
 * CountedTextField in MUI's filled variant alone (FilledTextField): the same count, error and
 * announcement, for a page that has no other use for TextField's Select and other variants.
 */
export function CountedFilledField({ value, rule, counted, helperText, error, ...props }: CountedFilledFieldProps) {
  const count = useCount({ value, rule, counted, helperText, error: Boolean(error) });
  return (
    <>
      <FilledTextField {...props} value={value} error={count.error} helperText={count.helperText} />
      <CountAnnouncement announcement={count.announcement} />
    </>
  );
}
