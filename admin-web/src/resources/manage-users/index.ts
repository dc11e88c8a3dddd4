import Icon from '@mui/icons-material/PeopleOutlined';
import { UserList } from './UserList';

export default { list: UserList, icon: Icon, options: { label: 'Manage Users' } };
