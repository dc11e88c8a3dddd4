import { ADMIN_PAGE_SIZE, type PostListItem } from '@forum/contracts';
import { DateField, List, NumberField, TextArrayField, useRecordContext } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import { ColumnsOrCards, type ListColumn } from '../../components/RecordCards';
import { HistoryLink } from '../history/HistoryLink';
import { EditPostButton } from './EditPostButton';
import { PostModerationButtons } from './PostModerationButtons';

type PostRecord = PostListItem & { id: string };

/** The post's history (the console's /history/post/:id page), named after its title. */
function PostHistoryLink() {
  const post = useRecordContext<PostRecord>();
  if (!post) return null;
  return <HistoryLink kind="post" id={String(post.id)} name={`the post “${post.title}”`} />;
}

const POST_COLUMNS: ListColumn[] = [
  { label: 'Title', source: 'title', sortable: true },
  { label: 'Author', source: 'authorName', sortable: true },
  { label: 'Tags', source: 'tags', field: <TextArrayField source="tags" /> },
  { label: 'Created at', source: 'createdAt', field: <DateField source="createdAt" showTime />, sortable: true },
  { label: 'Up', source: 'upVote', field: <NumberField source="upVote" />, sortable: true },
  { label: 'Down', source: 'downVote', field: <NumberField source="downVote" />, sortable: true },
];

/**
 * Every post of the forum (/admin/posts), newest first, sortable by its columns; each with Edit
 * (with a reason), staff's Pin, Lock, Hide and Delete, and the way to its history. Cards on a phone.
 */
export function PostList() {
  return (
    <List sort={{ field: 'createdAt', order: 'DESC' }} perPage={ADMIN_PAGE_SIZE} exporter={false} actions={false} pagination={<ListPagination />}>
      <ColumnsOrCards<PostRecord>
        columns={POST_COLUMNS}
        label={(post) => post.title}
        actions={
          <>
            <EditPostButton />
            <PostModerationButtons />
            <PostHistoryLink />
          </>
        }
      />
    </List>
  );
}
