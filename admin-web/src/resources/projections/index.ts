import Icon from '@mui/icons-material/StorageOutlined';
import { ProjectionList } from './ProjectionList';

export default { list: ProjectionList, icon: Icon, options: { label: 'Projections' } };
