import FlagOutlined from '@mui/icons-material/FlagOutlined';
import { lazyPage } from '../../lazyPage';

export default { list: lazyPage(() => import('./ReportQueueList'), 'ReportQueueList'), icon: FlagOutlined, options: { label: 'Reports' } };
