import { Box } from '@mui/material';
import { useEffect } from 'react';
import { List, useListContext, useNotify } from 'react-admin';
import { ColumnsOrCards, type ListColumn } from '../../components/RecordCards';
import { CheckpointField, ErrorField, LagField, StateField, VersionField } from './ProjectionFields';
import { RebuildButton } from './RebuildButton';
import { POLL_MS, progressOf, RebuildsProvider, useRebuilds, type ProjectionRecord } from './rebuilds';

/**
 * Follows the rebuilds this console started: says how far each has come, and once its new build
 * is the live one (the old one gone) says so; a build that halts is said too.
 */
function RebuildProgress() {
  const { data } = useListContext<ProjectionRecord>();
  const { watching, done, status, say } = useRebuilds();
  const notify = useNotify();
  useEffect(() => {
    if (!data) return;
    for (const [name, from] of watching) {
      const live = data.find((b) => b.name === name && b.role === 'live');
      const building = data.find((b) => b.name === name && b.role === 'building');
      if (building?.state === 'halted') {
        done(name);
        say(`The rebuild of ${name} halted: ${building.error ?? 'unknown error'}`);
        notify(`The rebuild of ${name} halted`, { type: 'error' });
      } else if (live && live.build > from && !building) {
        done(name);
        say(`${name} rebuilt: build ${live.build} is live`);
        notify(`${name} rebuilt: build ${live.build} is live`, { type: 'success' });
      } else if (building) {
        say(`Rebuilding ${name}: ${progressOf(building)}% of the log`);
      }
    }
  }, [data, watching, done, say, notify]);
  return (
    <Box role="status" aria-live="polite" sx={{ px: 2, py: status ? 1 : 0, typography: 'body2', color: 'text.secondary' }}>
      {status}
    </Box>
  );
}

const PROJECTION_COLUMNS: ListColumn[] = [
  { label: 'Projection', source: 'name' },
  { label: 'Version', source: 'version', field: <VersionField /> },
  { label: 'State', source: 'state', field: <StateField /> },
  { label: 'Checkpoint', source: 'checkpoint', field: <CheckpointField /> },
  { label: 'Lag', source: 'lag', field: <LagField /> },
  { label: 'Error', source: 'error', field: <ErrorField />, optional: true },
];

function ProjectionTable() {
  const { watching } = useRebuilds();
  return (
    <List
      exporter={false}
      title="Projections"
      actions={false}
      pagination={false}
      perPage={100}
      sort={{ field: 'name', order: 'ASC' }}
      // read again every POLL_MS while a build is under way or a rebuild asked for here is not live yet
      queryOptions={{
        refetchInterval: (query) =>
          watching.size > 0 || (query.state.data as { data: ProjectionRecord[] } | undefined)?.data.some((b) => b.role === 'building') ? POLL_MS : false,
      }}
    >
      <RebuildProgress />
      <ColumnsOrCards<ProjectionRecord> columns={PROJECTION_COLUMNS} label={(build) => `${build.name}, build ${build.build}`} actions={<RebuildButton />} />
    </List>
  );
}

/**
 * The read models (/admin/projections): each build with its version, state, checkpoint, lag and,
 * when halted, its error; Rebuild starts a blue-green rebuild and the page follows it until the
 * new build is live.
 */
export function ProjectionList() {
  return (
    <RebuildsProvider>
      <ProjectionTable />
    </RebuildsProvider>
  );
}
