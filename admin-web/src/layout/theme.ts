import { BRAND } from '@forum/contracts';
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import type { Theme } from '@mui/material';

/** react-admin's default theme in the forum's colours (its light blue gave white text 3.1:1; these pass WCAG AA). */
export const consoleTheme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: BRAND.primary },
    secondary: { main: '#303f9f' },
    // dark enough for an error label on react-admin's grey filled fields (4.5:1)
    error: { main: '#c62828' },
    background: { default: BRAND.background },
  },
  // the spec's texts as written ('Make Admin', 'Add Tag'), not in capitals
  typography: { ...defaultTheme.typography, button: { textTransform: 'none', fontWeight: 600 } },
  components: {
    ...defaultTheme.components,
    // the not-found page greys its text with opacity 0.5 (2.9:1): the secondary text colour reads at AA, the icon stays grey
    RaNotFound: {
      styleOverrides: {
        root: ({ theme }: { theme: Theme }) => ({
          '& .RaNotFound-message': { opacity: 1, color: theme.palette.text.secondary },
          '& .RaNotFound-icon': { color: theme.palette.text.disabled },
        }),
      },
    },
  },
};
