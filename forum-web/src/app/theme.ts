import { BRAND } from '@forum/contracts';
import { createTheme } from '@mui/material/styles';
import { fieldsClearOfBar } from './clear-of-bar';

/** System fonts: the app fetches nothing from outside its own origin. */
const fontFamily = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  '"Noto Sans"',
  'sans-serif',
].join(',');

export const theme = createTheme({
  palette: {
    primary: { main: BRAND.primary },
    // dark enough for white text on contained buttons (WCAG AA, 4.5:1)
    secondary: { main: BRAND.secondary },
    background: { default: BRAND.background },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily,
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiCssBaseline: { styleOverrides: fieldsClearOfBar },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    MuiButton: { defaultProps: { disableElevation: true } },
  },
});
