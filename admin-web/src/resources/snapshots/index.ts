import Icon from '@mui/icons-material/HistoryToggleOffOutlined';
import { SnapshotList } from './SnapshotList';

export default { list: SnapshotList, icon: Icon, options: { label: 'Snapshots' } };
