import ArticleIcon from '@mui/icons-material/Article';
import { PostList } from './PostList';

export default { list: PostList, icon: ArticleIcon };
