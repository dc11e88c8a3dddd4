import { Card, CardContent, Skeleton } from '@mui/material';

/** The place of a card of text (a title, two lines, a row of tags) while its list loads; hidden from assistive technology. */
export function TextCardSkeleton() {
  return (
    <Card aria-hidden>
      <CardContent>
        <Skeleton sx={{ fontSize: '1.4rem' }} width="70%" />
        <Skeleton width="95%" />
        <Skeleton width="60%" />
        <Skeleton width="30%" sx={{ mt: 1.5 }} />
      </CardContent>
    </Card>
  );
}
