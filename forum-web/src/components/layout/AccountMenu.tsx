import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import Logout from '@mui/icons-material/Logout';
import { Avatar, Box, Button, CircularProgress, Divider, IconButton, ListItemIcon, Menu, MenuItem, Tooltip, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import defaultAvatar from '../../assets/default-avatar.svg';
import { loginRequired, useAuth, useAuthState } from '../../lib/auth';

/** Right end of the bar (spec §2 Shell): 'Join Us' for visitors; the user's picture and a menu once signed in. */
export function AccountMenu() {
  const auth = useAuth();
  const { status, user } = useAuthState();
  const location = useLocation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [leaving, setLeaving] = useState(false);
  const menuId = useId();
  const here = `${location.pathname}${location.search}${location.hash}`;

  if (status === 'loading') return <CircularProgress color="inherit" size={28} aria-label="Loading your account" sx={{ m: 0.5 }} />;

  if (!user) {
    return (
      <Button component={Link} to="/joinUs" state={{ from: here }} variant="contained" color="secondary" disableElevation>
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
      <Tooltip title={user.name}>
        <IconButton
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-controls={anchor ? menuId : undefined}
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : undefined}
          disabled={leaving}
          sx={{ p: 0.5 }}
        >
          <Avatar
            alt=""
            src={user.picture || defaultAvatar}
            slotProps={{ img: { referrerPolicy: 'no-referrer' } }}
            sx={{ width: 36, height: 36, border: 2, borderColor: 'rgba(255 255 255 / 0.7)' }}
          >
            <img src={defaultAvatar} alt="" width={36} height={36} />
          </Avatar>
        </IconButton>
      </Tooltip>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 220, mt: 1 } } }}
      >
        <Box sx={{ px: 2, py: 1 }}>
          <Typography sx={{ fontWeight: 700 }}>{user.name}</Typography>
          {user.email && (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {user.email}
            </Typography>
          )}
        </Box>
        <Divider />
        <MenuItem component={Link} to="/dashboard" onClick={() => setAnchor(null)}>
          <ListItemIcon>
            <DashboardOutlined fontSize="small" />
          </ListItemIcon>
          Dashboard
        </MenuItem>
        <MenuItem onClick={logout}>
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          Logout
        </MenuItem>
      </Menu>
    </>
  );
}
