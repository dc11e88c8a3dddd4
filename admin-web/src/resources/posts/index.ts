import ArticleIcon from '@mui/icons-material/Article';
import { lazyPage } from '../../lazyPage';

export default { list: lazyPage(() => import('./PostList'), 'PostList'), icon: ArticleIcon };
