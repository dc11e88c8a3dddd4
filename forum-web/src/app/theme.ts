import { BRAND } from '@forum/contracts';
import { createTheme } from '@mui/material/styles';
import { FOCUS_RING_COLOR, focusRing } from '../lib/focus-ring';
import { fieldsClearOfBar } from './clear-of-bar';

/** System fonts: the app fetches nothing from outside its own origin. */
const fontFamily = ['system-ui', '-apple-system', '"Segoe UI"', 'Roboto', '"Helvetica Neue"', 'Arial', '"Noto Sans"', 'sans-serif'].join(',');

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
  // MUI's own controls (buttons, links, chips, …) draw the ring when the keyboard focuses them; its
  // shadow is none of MUI's halos on coloured surfaces, which the ring's own colour takes care of
  focusVisible: { ...focusRing, boxShadow: '0 0 transparent' },
  components: {
    // fields keep clear of the fixed bar; what is not one of MUI's controls (a router link, the page's own markup) draws the same ring
    MuiCssBaseline: { styleOverrides: (theme) => ({ ...fieldsClearOfBar(theme), ':focus-visible': focusRing }) },
    // a field draws it around the whole field (its icons and border too), not around the bare text
    MuiInputBase: { styleOverrides: { root: { '&:has(:focus-visible)': focusRing } } },
    MuiAppBar: { styleOverrides: { root: { [FOCUS_RING_COLOR]: '#fff' } } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    MuiButton: { defaultProps: { disableElevation: true } },
  },
});
