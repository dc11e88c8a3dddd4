import { Paper, Typography } from '@mui/material';

/** One figure of a profile's statistics (a `dt` and its `dd`, inside the page's `dl`). */
export function Statistic({ label, value }: { label: string; value: number }) {
  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 1.5, sm: 2 }, display: 'flex', flexDirection: 'column-reverse', alignItems: 'center', justifyContent: 'flex-end', textAlign: 'center' }}
    >
      <Typography component="dt" color="text.secondary" variant="body2">
        {label}
      </Typography>
      <Typography component="dd" variant="h4" sx={{ m: 0, fontWeight: 800, color: 'primary.main', fontSize: { xs: '1.6rem', sm: '2.125rem' } }}>
        {value}
      </Typography>
    </Paper>
  );
}
