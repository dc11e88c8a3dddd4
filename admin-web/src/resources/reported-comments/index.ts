import Icon from '@mui/icons-material/ReportOutlined';
import { ReportedCommentList } from './ReportedCommentList';

export default { list: ReportedCommentList, icon: Icon, options: { label: 'Reported Comments' } };
