import Replay from '@mui/icons-material/Replay';
import { Typography } from '@mui/material';
import { useDataProvider, useListContext, useRecordContext } from 'react-admin';
import { ConfirmedAction } from '../../components/ConfirmedAction';
import type { ForumDataProvider } from '../../dataProvider';
import { useRebuilds, type ProjectionRecord } from './rebuilds';

/**
 * Rebuild, on a projection's live build: after the confirmation it asks for a blue-green rebuild
 * (POST /api/admin/projections/:name/rebuild) and the page follows the new build until it is live.
 * While a build of the projection is under way there is nothing to ask for (a halted one may be asked for again).
 */
export function RebuildButton() {
  const build = useRecordContext<ProjectionRecord>();
  const { data } = useListContext<ProjectionRecord>();
  const dataProvider = useDataProvider<ForumDataProvider>();
  const { watching, watch, say } = useRebuilds();
  if (!build || build.role !== 'live') return null;
  const { name } = build;
  const underWay = watching.has(name) || (data ?? []).some((other) => other.name === name && other.state === 'building');
  if (underWay) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
        Rebuilding…
      </Typography>
    );
  }
  return (
    <ConfirmedAction
      label="Rebuild"
      ariaLabel={`Rebuild ${name}`}
      icon={<Replay />}
      title={`Rebuild ${name}?`}
      question={`A new build of ${name} replays the whole event log beside the live one and takes over its reads once it has caught up. The forum keeps reading build ${build.build} meanwhile.`}
      confirmLabel="Yes, rebuild"
      run={async () => {
        await dataProvider.rebuildProjection(name);
        watch(name, build.build);
        say(`Rebuilding ${name}…`);
      }}
      success={`Rebuild of ${name} started`}
      failure={`Could not start the rebuild of ${name}`}
      serverMessageFirst
      refresh
    />
  );
}
