import Icon from '@mui/icons-material/ManageHistoryOutlined';
import { lazyPage } from '../../lazyPage';

export default { list: lazyPage(() => import('./AuditList'), 'AuditList'), icon: Icon, options: { label: 'Staff actions' } };
