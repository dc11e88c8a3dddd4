import { Title } from 'react-admin';

/** Spec §2 Make Announcement (/admin/make-announcement) (being built: issue 17). */
export function MakeAnnouncement() {
  return <Title title="Make Announcement" />;
}
