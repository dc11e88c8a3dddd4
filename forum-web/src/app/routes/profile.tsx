import { PublicProfileParams } from '@forum/contracts';
import { useParams } from 'react-router-dom';
import { MemberNotFound, PublicProfilePage } from '../../features/profiles';

/** /u/:id and /u/@handle (profilePath, mentionPath): a member's public page; an id that cannot be one is not found. */
export function ProfilePage() {
  const { id = '' } = useParams();
  if (!PublicProfileParams.safeParse({ id }).success) return <MemberNotFound />;
  // keyed so another member's page starts from its own loading state
  return <PublicProfilePage key={id} id={id} />;
}
