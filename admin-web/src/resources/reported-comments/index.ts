import Icon from '@mui/icons-material/ReportOutlined';
import { lazyPage } from '../../lazyPage';

export default { list: lazyPage(() => import('./ReportedCommentList'), 'ReportedCommentList'), icon: Icon, options: { label: 'Reported Comments' } };
