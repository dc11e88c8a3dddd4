import EditOutlined from '@mui/icons-material/EditOutlined';
import { POST_DESCRIPTION_RULE, POST_TITLE_RULE, type PostDetail } from '@forum/contracts';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useGetOne, useRecordContext } from 'react-admin';
import { EditWithReasonDialog } from '../../components/EditWithReasonDialog';
import { TitleAndDescriptionInputs } from '../../components/TitleAndDescriptionInputs';
import type { ForumDataProvider } from '../../dataProvider';

/** Edit on a post of the console's list: its title and description (read in full when opened) and a reason. */
export function EditPostButton() {
  const post = useRecordContext<{ id: string; title: string }>();
  const [open, setOpen] = useState(false);
  const dataProvider = useDataProvider<ForumDataProvider>();
  const { data } = useGetOne<PostDetail & { id: string }>('posts', { id: post?.id ?? '' }, { enabled: open && !!post });
  if (!post) return null;
  return (
    <>
      <Button size="small" startIcon={<EditOutlined />} aria-label={`Edit the post “${post.title}”`} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Edit
      </Button>
      {open && data && (
        <EditWithReasonDialog
          open
          onClose={() => setOpen(false)}
          title={`Edit the post “${data.title}”`}
          authorEmail={data.authorEmail}
          values={{ title: data.title, description: data.description }}
          save={(edit) => dataProvider.editPost(post.id, edit)}
          fields={<TitleAndDescriptionInputs titleRule={POST_TITLE_RULE} descriptionRule={POST_DESCRIPTION_RULE} />}
        />
      )}
    </>
  );
}
