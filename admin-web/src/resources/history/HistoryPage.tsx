import { Title } from 'react-admin';

/** The event history of a user or a post (/admin/history/:kind/:id) (being built: issue 17). */
export function HistoryPage() {
  return <Title title="History" />;
}
