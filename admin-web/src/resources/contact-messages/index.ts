import Icon from '@mui/icons-material/MailOutlined';
import { ContactMessageList } from './ContactMessageList';

export default { list: ContactMessageList, icon: Icon, options: { label: 'Contact messages' } };
