// @vitest-environment jsdom
import { createTheme, InputAdornment, TextField, ThemeProvider } from '@mui/material';
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { FilledTextField } from './FilledTextField.tsx';

afterEach(cleanup);

// react-admin's theme makes every text field filled, dense, small and full width
const theme = createTheme({
  components: {
    MuiTextField: { defaultProps: { variant: 'filled', margin: 'dense', size: 'small', fullWidth: true } },
    MuiFormControl: { defaultProps: { variant: 'filled', margin: 'dense', size: 'small', fullWidth: true } },
  },
});

const markup = (field: ReactNode) => render(<ThemeProvider theme={theme}>{field}</ThemeProvider>).container.innerHTML;

describe('FilledTextField', () => {
  it('renders what MUI’s TextField renders in the filled variant: the same elements, classes, ids and attributes', () => {
    const props = {
      id: 'tag',
      label: 'Enter new tag',
      required: true,
      value: 'react',
      onChange: () => {},
      helperText: 'Name is taken',
      error: true,
      sx: { flex: 1 },
      slotProps: { input: { startAdornment: <InputAdornment position="start">#</InputAdornment> }, htmlInput: { autoComplete: 'off' } },
    };
    expect(markup(<FilledTextField {...props} />)).toBe(markup(<TextField {...props} />));
  });

  it('so does a multiline field without a helper text', () => {
    const props = { id: 'message', label: 'Message', multiline: true, minRows: 2, value: '', onChange: () => {} };
    expect(markup(<FilledTextField {...props} />)).toBe(markup(<TextField {...props} />));
  });
});
