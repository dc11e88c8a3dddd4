import ArrowBack from '@mui/icons-material/ArrowBack';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import { Divider, ListSubheader, MenuItem, ListItemIcon, ListItemText } from '@mui/material';
import { Menu, useBasename, useCanAccess, useSidebarState } from 'react-admin';

/**
 * Spec §2 admin side menu: Admin Profile (the dashboard), the moderators' Reports queue (issue #43),
 * Manage Users, Reported Comments, Make Announcement; then the operators' pages (beyond the spec) and
 * a way back to the forum. Each entry shows only to those whose role may open it (react-admin's
 * `canAccess`: a resource's entry checks it itself).
 */
export function ConsoleMenu() {
  const [open] = useSidebarState();
  const basename = useBasename();
  const { canAccess: mayAnnounce } = useCanAccess({ resource: 'announcements', action: 'create' });
  // an admin's first page is the spec's Admin Profile; a moderator's is their own (resources/dashboard/ModeratorHome.tsx)
  const { canAccess: admin } = useCanAccess({ resource: 'dashboard', action: 'stats' });
  return (
    <Menu>
      <Menu.DashboardItem primaryText={admin === false ? 'Home' : 'Admin Profile'} />
      <Menu.ResourceItem name="reports" />
      <Menu.ResourceItem name="manage-users" />
      <Menu.ResourceItem name="reported-comments" />
      {mayAnnounce && <Menu.Item to={`${basename}/make-announcement`} primaryText="Make Announcement" leftIcon={<CampaignOutlined />} />}
      <Divider sx={{ my: 1 }} />
      {/* a heading inside the menu, not one of its items */}
      {open && (
        <ListSubheader role="none" sx={{ bgcolor: 'transparent', lineHeight: 2 }}>
          Operations
        </ListSubheader>
      )}
      <Menu.ResourceItem name="audit" />
      <Menu.ResourceItem name="contact-messages" />
      <Menu.ResourceItem name="projections" />
      <Menu.ResourceItem name="snapshots" />
      <Menu.ResourceItem name="posts" />
      <Divider sx={{ my: 1 }} />
      {/* a full page load: the forum is another app of the gateway */}
      <MenuItem component="a" href="/">
        <ListItemIcon>
          <ArrowBack fontSize="small" />
        </ListItemIcon>
        <ListItemText>Back to the forum</ListItemText>
      </MenuItem>
    </Menu>
  );
}
