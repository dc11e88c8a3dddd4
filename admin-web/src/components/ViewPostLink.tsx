import OpenInNew from '@mui/icons-material/OpenInNew';
import { Link } from '@mui/material';
import { useId } from 'react';

/**
 * 'View Post': the forum's page of the post (another app of the gateway: a full page load), in a new
 * tab as its icon shows, so the admin keeps their place in the console; its description says so.
 */
export function ViewPostLink({ postId }: { postId: string }) {
  const newTab = useId();
  return (
    <>
      <Link
        href={`/post/${encodeURIComponent(postId)}`}
        target="_blank"
        rel="noopener noreferrer"
        aria-describedby={newTab}
        variant="body2"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
      >
        View Post
        <OpenInNew sx={{ fontSize: 14 }} aria-hidden />
      </Link>
      {/* what the icon shows, said by the link's description (a hidden element still describes) */}
      <span id={newTab} hidden>
        opens in a new tab
      </span>
    </>
  );
}
