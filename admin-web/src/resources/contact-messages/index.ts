import Icon from '@mui/icons-material/MailOutlined';
import { lazyPage } from '../../lazyPage';

export default { list: lazyPage(() => import('./ContactMessageList'), 'ContactMessageList'), icon: Icon, options: { label: 'Contact messages' } };
