export { PostComments, commentsPagePath } from './components/PostComments';
export { CommentsTable } from './components/CommentsTable';
