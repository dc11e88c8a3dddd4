import { MODERATION_REASON_RULE, PINNED_MAX, type PostListItem } from '@forum/contracts';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import PushPinOutlined from '@mui/icons-material/PushPinOutlined';
import VisibilityOffOutlined from '@mui/icons-material/VisibilityOffOutlined';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useRecordContext } from 'react-admin';
import { ConfirmedAction } from '../../components/ConfirmedAction';
import { ReasonDialog } from '../../components/ReasonDialog';
import type { ForumDataProvider } from '../../dataProvider';
import { useConsolePermissions } from '../../permissions';

type PostRecord = PostListItem & { id: string };

/** A lock's reason: optional, shown on the post when given. */
const LOCK_REASON_RULE = { ...MODERATION_REASON_RULE, required: undefined };

/**
 * Staff's actions on a post of the console's list (issue #43.3-4): Pin / Unpin (at most PINNED_MAX),
 * Lock (with an optional reason shown on the post) / Unlock, Hide (with the reason its author is
 * told) and Delete (confirmed). A hidden post leaves the forum's lists, this one too: it is unhidden
 * from the queue's Handled tab.
 */
export function PostModerationButtons() {
  const post = useRecordContext<PostRecord>();
  const dataProvider = useDataProvider<ForumDataProvider>();
  const { may } = useConsolePermissions('posts');
  const [dialog, setDialog] = useState<'hide' | 'lock' | null>(null);
  if (!post) return null;
  const id = String(post.id);
  const name = `the post “${post.title}”`;
  const close = () => setDialog(null);
  return (
    <>
      {may('pin') &&
        (post.pinned ? (
          <ConfirmedAction
            label="Unpin"
            ariaLabel={`Unpin ${name}`}
            icon={<PushPinOutlined />}
            question="It goes back to its place among the other posts."
            confirmLabel="Unpin"
            run={() => dataProvider.unpinPost(id)}
            success="Post unpinned"
            failure="Failed to unpin the post"
            serverMessageFirst
            refresh
          />
        ) : (
          <ConfirmedAction
            label="Pin"
            ariaLabel={`Pin ${name}`}
            icon={<PushPinOutlined />}
            question={`It is shown first on the home page, for everyone (at most ${PINNED_MAX} pinned posts).`}
            confirmLabel="Pin"
            run={() => dataProvider.pinPost(id)}
            success="Post pinned"
            failure="Failed to pin the post"
            serverMessageFirst
            refresh
          />
        ))}
      {may('lock') &&
        (post.locked ? (
          <ConfirmedAction
            label="Unlock"
            ariaLabel={`Unlock ${name}`}
            icon={<LockOpenOutlined />}
            question="Members can comment on it again."
            confirmLabel="Unlock"
            run={() => dataProvider.unlockPost(id)}
            success="Post unlocked"
            failure="Failed to unlock the post"
            serverMessageFirst
            refresh
          />
        ) : (
          <Button size="small" variant="outlined" startIcon={<LockOutlined />} aria-label={`Lock ${name}`} onClick={() => setDialog('lock')}>
            Lock
          </Button>
        ))}
      {may('hide') && (
        <Button size="small" variant="outlined" startIcon={<VisibilityOffOutlined />} aria-label={`Hide ${name}`} onClick={() => setDialog('hide')}>
          Hide
        </Button>
      )}
      {may('delete') && (
        <ConfirmedAction
          label="Delete"
          ariaLabel={`Delete ${name}`}
          icon={<DeleteOutlined />}
          color="error"
          destructive
          question="The post is deleted for everyone. This cannot be undone."
          confirmLabel="Delete post"
          run={() => dataProvider.deleteItem('post', id)}
          success="The post is deleted"
          failure="Failed to delete the post"
          serverMessageFirst
          refresh
        />
      )}
      <ReasonDialog
        open={dialog === 'lock'}
        onClose={close}
        title="Lock this post?"
        description="No new comments can be added. Votes and reports stay open. The reason, when you give one, is shown on the post."
        rule={LOCK_REASON_RULE}
        confirmLabel="Lock"
        run={(values) => dataProvider.lockPost(id, typeof values.reason === 'string' ? values.reason : undefined)}
        success="Post locked"
        failure="Failed to lock the post"
      />
      <ReasonDialog
        open={dialog === 'hide'}
        onClose={close}
        title="Hide this post?"
        description={`Only its author and staff will see it, marked as hidden with this reason. ${post.authorName} is told the reason.`}
        rule={MODERATION_REASON_RULE}
        confirmLabel="Hide"
        run={(values) => dataProvider.hide('post', id, String(values.reason))}
        success="The post is hidden"
        failure="Failed to hide the post"
      />
    </>
  );
}
