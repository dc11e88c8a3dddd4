import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import Logout from '@mui/icons-material/Logout';
import { Box, Divider, ListItemIcon, Menu, MenuItem, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import type { AuthUser } from '../../lib/auth';

interface UserMenuProps {
  id: string;
  /** the avatar; the menu is open while there is one */
  anchor: HTMLElement | null;
  user: AuthUser;
  onClose: () => void;
  onLogout: () => void;
}

/** The avatar's menu (its own chunk): who is signed in, Dashboard, Logout. */
export default function UserMenu({ id, anchor, user, onClose, onLogout }: UserMenuProps) {
  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
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
      <MenuItem component={Link} to="/dashboard" onClick={onClose}>
        <ListItemIcon>
          <DashboardOutlined fontSize="small" />
        </ListItemIcon>
        Dashboard
      </MenuItem>
      <MenuItem onClick={onLogout}>
        <ListItemIcon>
          <Logout fontSize="small" />
        </ListItemIcon>
        Logout
      </MenuItem>
    </Menu>
  );
}
