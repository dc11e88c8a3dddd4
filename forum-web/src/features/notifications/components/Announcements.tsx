import { Markdown, PersonAvatar } from '@forum/web-ui';
import { Card, CardContent, Stack, Typography } from '@mui/material';
import { formatDate } from '../../../lib/format';
import { useGetAnnouncementsQuery } from '../api/get-announcements';

/** Spec §2 Home: the announcements block (title, description, author, date, photo), fed by GET /api/announcements. */
export function Announcements() {
  const { data } = useGetAnnouncementsQuery();
  if (!data || data.length === 0) return null;
  return (
    <section aria-labelledby="announcements-heading">
      <Typography id="announcements-heading" variant="h6" component="h2" sx={{ fontWeight: 700, mb: 1.5 }}>
        Announcements
      </Typography>
      <Stack spacing={1.5}>
        {data.slice(0, 3).map((a) => (
          <Card key={a._id} component="article" variant="outlined" sx={{ borderLeft: 4, borderLeftColor: 'secondary.main' }}>
            <CardContent>
              <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
                <PersonAvatar name={a.authorName} photo={a.authorPhoto} size={32} />
                <Typography variant="body2">
                  <strong>{a.authorName}</strong> ·{' '}
                  <Typography component="time" variant="body2" color="text.secondary" dateTime={a.date}>
                    {formatDate(a.date)}
                  </Typography>
                </Typography>
              </Stack>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
                {a.title}
              </Typography>
              <Markdown source={a.description} sx={{ typography: 'body2', color: 'text.secondary' }} />
            </CardContent>
          </Card>
        ))}
      </Stack>
    </section>
  );
}
