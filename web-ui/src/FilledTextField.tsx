import {
  FilledInput,
  FormControl,
  FormHelperText,
  InputLabel,
  type FilledInputProps,
  type FormHelperTextProps,
  type InputLabelProps,
  type TextFieldProps,
} from '@mui/material';
import { styled, useThemeProps } from '@mui/material/styles';
import { useId, type InputHTMLAttributes } from 'react';

/** MUI's TextField root: a FormControl that the theme's `MuiTextField` styles apply to. */
const Root = styled(FormControl, { name: 'MuiTextField', slot: 'Root' })({});

export type FilledTextFieldProps = Omit<TextFieldProps, 'select' | 'variant' | 'autoFocus' | 'slots' | 'slotProps' | 'children' | 'SelectProps'> & {
  slotProps?: {
    input?: Partial<FilledInputProps>;
    htmlInput?: InputHTMLAttributes<HTMLInputElement | HTMLTextAreaElement>;
    inputLabel?: Partial<InputLabelProps>;
    formHelperText?: Partial<FormHelperTextProps>;
  };
};

/**
 * MUI's `TextField` in its filled variant (react-admin's theme makes it the console's), put
 * together from the same parts as TextField puts it (FormControl, InputLabel, FilledInput,
 * FormHelperText), with the theme's `MuiTextField` defaults and styles, and its ids: the label names
 * the input and the helper text describes it. TextField itself imports `Select` and its other two
 * variants, which a page with a text field alone does not need (about 5 KB gzip).
 */
export function FilledTextField(inProps: FilledTextFieldProps) {
  const {
    autoComplete,
    className,
    color = 'primary',
    defaultValue,
    disabled = false,
    error = false,
    fullWidth = false,
    helperText,
    id: idOverride,
    inputRef,
    label,
    maxRows,
    minRows,
    multiline = false,
    name,
    onBlur,
    onChange,
    onFocus,
    placeholder,
    required = false,
    rows,
    slotProps = {},
    type,
    value,
    ...other
  } = useThemeProps({ props: inProps, name: 'MuiTextField' });
  const generatedId = useId();
  const id = idOverride ?? generatedId;
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  return (
    <Root
      {...other}
      className={className ? `MuiTextField-root ${className}` : 'MuiTextField-root'}
      disabled={disabled}
      error={error}
      fullWidth={fullWidth}
      required={required}
      color={color}
      variant="filled"
    >
      {label != null && label !== '' && (
        <InputLabel htmlFor={id} id={`${id}-label`} {...slotProps.inputLabel}>
          {label}
        </InputLabel>
      )}
      <FilledInput
        aria-describedby={helperTextId}
        autoComplete={autoComplete}
        defaultValue={defaultValue}
        fullWidth={fullWidth}
        multiline={multiline}
        name={name}
        rows={rows}
        maxRows={maxRows}
        minRows={minRows}
        type={type}
        value={value}
        id={id}
        inputRef={inputRef}
        onBlur={onBlur}
        onChange={onChange}
        onFocus={onFocus}
        placeholder={placeholder}
        inputProps={slotProps.htmlInput}
        {...slotProps.input}
      />
      {helperText && (
        <FormHelperText id={helperTextId} {...slotProps.formHelperText}>
          {helperText}
        </FormHelperText>
      )}
    </Root>
  );
}
