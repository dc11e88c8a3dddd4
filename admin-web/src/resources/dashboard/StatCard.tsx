import { Box, Card, Skeleton, Typography } from '@mui/material';
import { useId, type ReactNode } from 'react';

/** One of the dashboard's totals (react-admin demo's CardWithIcon, without the link). */
export function StatCard({ icon, title, value }: { icon: ReactNode; title: string; value: number | undefined }) {
  const titleId = useId();
  return (
    <Card
      role="group"
      aria-labelledby={titleId}
      sx={{
        position: 'relative',
        overflow: 'hidden',
        p: 2,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        // the demo's tinted disc behind the icon
        '&::before': {
          position: 'absolute',
          top: '50%',
          left: 0,
          content: "''",
          height: '200%',
          aspectRatio: '1',
          transform: 'translate(-30%, -60%)',
          borderRadius: '50%',
          bgcolor: 'secondary.main',
          opacity: 0.12,
        },
      }}
    >
      <Box aria-hidden sx={{ color: 'secondary.main', display: 'flex', '& svg': { fontSize: 40 } }}>
        {icon}
      </Box>
      <Box sx={{ textAlign: 'right' }}>
        <Typography id={titleId} color="text.secondary">
          {title}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
          {value === undefined ? <Skeleton width={48} sx={{ ml: 'auto' }} /> : value.toLocaleString('en-US')}
        </Typography>
      </Box>
    </Card>
  );
}
