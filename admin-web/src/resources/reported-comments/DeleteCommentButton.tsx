import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { useDataProvider, useRecordContext } from 'react-admin';
import { ConfirmedAction } from '../../components/ConfirmedAction';
import type { ForumDataProvider } from '../../dataProvider';
import { commentStart, type ReportedCommentGroup } from './groupReports';

/**
 * Spec §2/§8 Delete: confirmed, pessimistic; the comment goes and with it every report of it,
 * so the list is read again (at the command's position) and its row is gone.
 */
export function DeleteCommentButton() {
  const comment = useRecordContext<ReportedCommentGroup>();
  const dataProvider = useDataProvider<ForumDataProvider>();
  if (!comment) return null;
  return (
    <ConfirmedAction
      label="Delete"
      ariaLabel={`Delete the comment by ${comment.author.name}: ${commentStart(comment)}`}
      color="error"
      icon={<DeleteOutlined />}
      question="You won't be able to revert this!"
      confirmLabel="Yes, delete it!"
      destructive
      run={() => dataProvider.deleteComment(comment.id)}
      success="Deleted! Comment deleted successfully"
      failure="Failed to delete comment"
      serverMessageFirst
      refresh
    />
  );
}
