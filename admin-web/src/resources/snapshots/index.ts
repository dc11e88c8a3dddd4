import Icon from '@mui/icons-material/HistoryToggleOffOutlined';
import { lazyPage } from '../../lazyPage';

export default { list: lazyPage(() => import('./SnapshotList'), 'SnapshotList'), icon: Icon, options: { label: 'Snapshots' } };
