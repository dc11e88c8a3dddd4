import { Box, CircularProgress, Typography } from '@mui/material';

/** Spec §2: a spinner while the authentication state loads (and while a page forwards to the realm). */
export function PageSpinner({ label = 'Loading…', fullScreen = false }: { label?: string; fullScreen?: boolean }) {
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        py: 8,
        minHeight: fullScreen ? '100vh' : undefined,
      }}
    >
      <CircularProgress aria-label={label} />
      <Typography color="text.secondary">{label}</Typography>
    </Box>
  );
}
