import { Title } from 'react-admin';

/** Spec §2 Admin dashboard, 'Admin Profile' (being built: issue 17). */
export default function Dashboard() {
  return <Title title="Admin Profile" />;
}
