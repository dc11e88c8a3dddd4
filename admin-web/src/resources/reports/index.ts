import FlagOutlined from '@mui/icons-material/FlagOutlined';
import { ReportQueueList } from './ReportQueueList';

export default { list: ReportQueueList, icon: FlagOutlined, options: { label: 'Reports' } };
