import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import { ANNOUNCEMENT_DESCRIPTION_RULE, ANNOUNCEMENT_TITLE_RULE, type CreateAnnouncementRequest } from '@forum/contracts';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Form, useBasename, useDataProvider, useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { TitleAndDescriptionInputs } from '../../components/TitleAndDescriptionInputs';
import { serverFieldMessages, type ForumDataProvider } from '../../dataProvider';
import { PageTitle } from '../../layout/PageTitle';

/** The API's own field messages of a refused announcement (400 VALIDATION_FAILED), to show on the fields. */
function fieldErrorsOf(error: unknown): Record<string, string> | undefined {
  const { title, description } = serverFieldMessages(error);
  return title || description ? { ...(title && { title }), ...(description && { description }) } : undefined;
}

/**
 * Spec §2 Make Announcement (/admin/make-announcement): Title and Description, both required,
 * 'Post Announcement' ('Posting...' while sending). Once accepted the form is emptied and the
 * console goes back to its dashboard; the forum's bell shows the announcement.
 */
export function MakeAnnouncement() {
  const dataProvider = useDataProvider<ForumDataProvider>();
  const notify = useNotify();
  const navigate = useNavigate();
  const basename = useBasename();
  // a new key is a new, empty form
  const [formKey, setFormKey] = useState(0);
  const { mutateAsync, isPending } = useMutation({ mutationFn: (announcement: CreateAnnouncementRequest) => dataProvider.createAnnouncement(announcement) });

  const submit = async (values: { title?: string | null; description?: string | null }) => {
    try {
      await mutateAsync({ title: (values.title ?? '').trim(), description: (values.description ?? '').trim() });
    } catch (error) {
      notify('Failed to create announcement', { type: 'error' });
      return fieldErrorsOf(error);
    }
    notify('Announcement created successfully', { type: 'success' });
    setFormKey((key) => key + 1);
    void navigate(basename || '/');
    return undefined;
  };

  return (
    <Box sx={{ py: 2, maxWidth: 760 }}>
      <PageTitle title="Make Announcement" />
      <Card component="section" aria-labelledby="make-announcement-heading">
        <CardContent>
          <Typography id="make-announcement-heading" variant="h6" component="h1" sx={{ fontWeight: 700 }}>
            Make Announcement
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            Everyone on the forum sees it under the notification bell.
          </Typography>
          {/* validated on change: a text over its limit is in error at once, as its counter says */}
          <Form key={formKey} mode="onChange" onSubmit={submit} noValidate disableInvalidFormNotification defaultValues={{ title: '', description: '' }}>
            <TitleAndDescriptionInputs titleRule={ANNOUNCEMENT_TITLE_RULE} descriptionRule={ANNOUNCEMENT_DESCRIPTION_RULE} />
            <Button type="submit" variant="contained" startIcon={<CampaignOutlined />} disabled={isPending} sx={{ mt: 1 }}>
              {isPending ? 'Posting...' : 'Post Announcement'}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </Box>
  );
}
