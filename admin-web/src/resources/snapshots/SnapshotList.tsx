import type { Snapshot } from '@forum/contracts';
import { Alert, Box, Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { List, useRecordContext } from 'react-admin';
import { ColumnsOrCards, type ListColumn } from '../../components/RecordCards';

/** How often the list is read again while a snapshot is being built. */
export const SNAPSHOT_POLL_MS = 2000;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function NameField() {
  const snapshot = useRecordContext<Snapshot>();
  if (!snapshot) return null;
  return (
    <Box>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {snapshot.name}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
        {snapshot.schema}
      </Typography>
    </Box>
  );
}

/** The log position it stops at, and that event's time. */
function MomentField() {
  const snapshot = useRecordContext<Snapshot>();
  if (!snapshot) return null;
  return (
    <Box>
      <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
        {snapshot.position}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        <time dateTime={snapshot.at} title={snapshot.at}>
          {new Date(snapshot.at).toLocaleString()}
        </time>
      </Typography>
    </Box>
  );
}

const STATE_LABELS = { ready: 'Ready', failed: 'Failed', interrupted: 'Interrupted', building: 'Building' } as const;
const STATE_COLORS = { ready: 'success', failed: 'error', interrupted: 'warning', building: 'info' } as const;

/** Ready, Failed, Interrupted, or Building with how far it has come: read models built, and the one under way. */
function StateField() {
  const snapshot = useRecordContext<Snapshot>();
  if (!snapshot) return null;
  const chip = (
    <Chip
      size="small"
      color={STATE_COLORS[snapshot.state]}
      variant={snapshot.state === 'ready' ? 'outlined' : 'filled'}
      label={STATE_LABELS[snapshot.state]}
      sx={{ alignSelf: 'flex-start' }}
    />
  );
  if (snapshot.state !== 'building') return chip;
  const done = Math.round(((snapshot.built + snapshot.percent / 100) * 100) / Math.max(snapshot.total, 1));
  return (
    <Stack spacing={0.5} sx={{ minWidth: 160 }}>
      {chip}
      <LinearProgress variant="determinate" value={done} aria-label={`Snapshot ${snapshot.name}`} />
      <Typography variant="caption" color="text.secondary">
        {snapshot.built} of {snapshot.total} read models{snapshot.current ? `, ${snapshot.current} at ${snapshot.percent}%` : ''}
      </Typography>
    </Stack>
  );
}

function SizeField() {
  const snapshot = useRecordContext<Snapshot>();
  if (!snapshot) return null;
  return <Typography variant="body2">{megabytes(snapshot.bytes)}</Typography>;
}

/** Accounts erased since the snapshot was built: it still holds what the log showed of them then. */
function ErasedSinceField() {
  const snapshot = useRecordContext<Snapshot>();
  if (!snapshot) return null;
  if (snapshot.erasedSince === 0) return <Typography variant="body2">none</Typography>;
  return (
    <Typography variant="body2" color="warning.dark" sx={{ maxWidth: 240 }}>
      {snapshot.erasedSince} {snapshot.erasedSince === 1 ? 'account' : 'accounts'}: drop it and take it again
    </Typography>
  );
}

function ErrorField() {
  const snapshot = useRecordContext<Snapshot>();
  if (!snapshot?.error) return null;
  return (
    <Typography variant="body2" color="error" sx={{ maxWidth: 320, overflowWrap: 'anywhere' }}>
      {snapshot.error}
    </Typography>
  );
}

const SNAPSHOT_COLUMNS: ListColumn[] = [
  { label: 'Snapshot', source: 'name', field: <NameField /> },
  { label: 'As of', source: 'position', field: <MomentField /> },
  { label: 'State', source: 'state', field: <StateField /> },
  { label: 'Size', source: 'bytes', field: <SizeField /> },
  { label: 'Erased since', source: 'erasedSince', field: <ErasedSinceField /> },
  { label: 'Taken by', source: 'requestedBy' },
  { label: 'Error', source: 'error', field: <ErrorField />, optional: true },
];

/**
 * The snapshots of the read models (/admin/snapshots; docs/console.md): each as of a position of
 * the log, in a read-only schema for audit queries; newest first, with its progress while
 * `forumctl snapshot` builds it (read again every few seconds meanwhile). Taken and dropped with
 * forumctl, not here.
 */
export function SnapshotList() {
  return (
    <List
      exporter={false}
      title="Snapshots"
      actions={false}
      pagination={false}
      perPage={100}
      queryOptions={{
        refetchInterval: (query) =>
          (query.state.data as { data: Snapshot[] } | undefined)?.data.some((s) => s.state === 'building') ? SNAPSHOT_POLL_MS : false,
      }}
      empty={
        <Alert severity="info" sx={{ m: 2 }}>
          No snapshots yet. An operator takes one with <code>forumctl snapshot &lt;time|position&gt;</code> (docs/operations.md).
        </Alert>
      }
    >
      <Alert severity="info" sx={{ m: 1 }}>
        Every read model as the log stood at one position, in a read-only schema to query with psql: taken with{' '}
        <code>forumctl snapshot &lt;time|position&gt;</code>, dropped with <code>forumctl snapshot --drop &lt;name&gt;</code>.
      </Alert>
      <ColumnsOrCards<Snapshot> columns={SNAPSHOT_COLUMNS} label={(snapshot) => `Snapshot ${snapshot.name}`} />
    </List>
  );
}
