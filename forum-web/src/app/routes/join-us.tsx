import { ComingSoonPage } from './coming-soon';

export function JoinUsPage() {
  return <ComingSoonPage title="Join Us" message="Sign-in and registration are coming soon." />;
}
