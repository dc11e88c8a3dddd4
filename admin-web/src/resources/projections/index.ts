import Icon from '@mui/icons-material/StorageOutlined';
import { lazyPage } from '../../lazyPage';

export default { list: lazyPage(() => import('./ProjectionList'), 'ProjectionList'), icon: Icon, options: { label: 'Projections' } };
