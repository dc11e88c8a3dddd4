import Icon from '@mui/icons-material/PeopleOutlined';
import { lazyPage } from '../../lazyPage';

export default { list: lazyPage(() => import('./UserList'), 'UserList'), icon: Icon, options: { label: 'Manage Users' } };
