import Icon from '@mui/icons-material/ManageHistoryOutlined';
import { AuditList } from './AuditList';

export default { list: AuditList, icon: Icon, options: { label: 'Staff actions' } };
