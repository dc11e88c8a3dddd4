import { PersonAvatar } from '@forum/web-ui';
import { Button, CircularProgress, IconButton } from '@mui/material';
import { lazy, Suspense, useId, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { loginRequired, useAuth, useAuthState } from '../../lib/auth';
import { Hint } from '../Hint';

const loadUserMenu = () => import('./UserMenu');
const UserMenu = lazy(loadUserMenu);

/**
 * Right end of the bar (spec §2 Shell): 'Join Us' for visitors; the user's picture and a menu once
 * signed in. `picture`: the photo the forum has (a changed photo shows at once), else the token's.
 */
export function AccountMenu({ picture }: { picture?: string }) {
  const auth = useAuth();
  const { status, user } = useAuthState();
  const location = useLocation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [menuOpened, setMenuOpened] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const menuId = useId();
  const here = `${location.pathname}${location.search}${location.hash}`;

  if (status === 'loading') return <CircularProgress color="inherit" size={28} aria-label="Loading your account" sx={{ m: 0.5 }} />;

  if (!user) {
    return (
      <Button
        component={Link}
        to="/joinUs"
        state={{ from: here }}
        variant="contained"
        color="secondary"
        disableElevation
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
      >
        Join Us
      </Button>
    );
  }

  const logout = () => {
    setAnchor(null);
    setLeaving(true);
    // a page that needs sign-in would send the signed-out visitor straight back to the realm
    const back = loginRequired(location.pathname) ? '/' : here;
    void auth.logout({ redirectUri: new URL(back, window.location.origin).href });
  };

  return (
    <>
      <Hint title={user.name}>
        <IconButton
          onClick={(event) => {
            setAnchor(event.currentTarget);
            setMenuOpened(true);
          }}
          onPointerEnter={() => void loadUserMenu()}
          onFocus={() => void loadUserMenu()}
          // its name here, not from the hint, which loads after the page
          aria-label={user.name}
          aria-controls={anchor ? menuId : undefined}
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : undefined}
          disabled={leaving}
          sx={{ p: 0.5 }}
        >
          <PersonAvatar name={user.name} photo={picture || user.picture} size={36} sx={{ border: 2, borderColor: 'rgba(255 255 255 / 0.7)' }} />
        </IconButton>
      </Hint>
      {/* the menu's code loads when it is first opened (or pointed at) */}
      {menuOpened && (
        <Suspense fallback={null}>
          <UserMenu id={menuId} anchor={anchor} user={user} onClose={() => setAnchor(null)} onLogout={logout} />
        </Suspense>
      )}
    </>
  );
}
