import { Box, Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { progressOf, type ProjectionRecord } from './rebuilds';

/** The projection's version and which build of it this is. */
export function VersionField() {
  const build = useRecordContext<ProjectionRecord>();
  if (!build) return null;
  return (
    <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      v{build.version} · build {build.build}
    </Typography>
  );
}

/** Live, Halted, or Building with how far it has come. */
export function StateField() {
  const build = useRecordContext<ProjectionRecord>();
  if (!build) return null;
  if (build.state === 'halted') return <Chip size="small" color="error" label="Halted" />;
  if (build.state === 'live') return <Chip size="small" color="success" variant="outlined" label="Live" />;
  const progress = progressOf(build);
  return (
    <Stack spacing={0.5} sx={{ minWidth: 140 }}>
      <Chip size="small" color="info" label="Building" sx={{ alignSelf: 'flex-start' }} />
      <LinearProgress variant="determinate" value={progress} aria-label={`Rebuild of ${build.name}`} />
      <Typography variant="caption" color="text.secondary">
        {progress}% of the log
      </Typography>
    </Stack>
  );
}

/** Events behind the head of the log. */
export function LagField() {
  const build = useRecordContext<ProjectionRecord>();
  if (!build) return null;
  return (
    <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {build.lag === 0 ? 'caught up' : `${build.lag.toLocaleString('en')} ${build.lag === 1 ? 'event' : 'events'}`}
    </Typography>
  );
}

export function CheckpointField() {
  const build = useRecordContext<ProjectionRecord>();
  if (!build) return null;
  return (
    <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
      {build.checkpoint}
    </Typography>
  );
}

/** A halted build's error and the position of the event it stopped at. */
export function ErrorField() {
  const build = useRecordContext<ProjectionRecord>();
  if (!build?.error) return null;
  return (
    <Box sx={{ maxWidth: 360 }}>
      <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
        {build.error}
      </Typography>
      {build.failedPosition && (
        <Typography variant="caption" color="text.secondary">
          at position {build.failedPosition}
        </Typography>
      )}
    </Box>
  );
}
