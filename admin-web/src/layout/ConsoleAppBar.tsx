import { AppBar as MuiAppBar, Toolbar, useMediaQuery, type Theme } from '@mui/material';
import { styled } from '@mui/material/styles';
import { HideOnScroll, LoadingIndicator, Logout, SidebarToggleButton, TitlePortal, UserMenu, useGetIdentity } from 'react-admin';

/** The account menu's button is named after who is signed in, as it shows their name. */
function ConsoleUserMenu() {
  const { identity } = useGetIdentity();
  return (
    <UserMenu label={identity?.fullName ? `Profile of ${identity.fullName}` : 'Profile'}>
      <Logout />
    </UserMenu>
  );
}

// react-admin's class names for its app bar (its `AppBarClasses`, named here: its module would bring the buttons below)
const classes = { appBar: 'RaAppBar-appBar', toolbar: 'RaAppBar-toolbar', menuButton: 'RaAppBar-menuButton', title: 'RaAppBar-title' } as const;

const Bar = styled(MuiAppBar, { name: 'RaAppBar', overridesResolver: (_props, styles) => styles.root })(({ theme }) => ({
  [`& .${classes.toolbar}`]: {
    padding: `0 ${theme.spacing(1)}`,
    [theme.breakpoints.down('md')]: { minHeight: theme.spacing(6) },
  },
  [`& .${classes.menuButton}`]: { marginRight: '0.2em' },
}));

/**
 * react-admin's app bar (`AppBar`: its class names and styles, hidden on scroll down) with the
 * console's account menu, put together from react-admin's parts as its AppBar does, less its default
 * toolbar's language and dark-theme buttons, which the console (one language, one theme) never
 * shows and whose code AppBar brings (about 1 KB gzip). What it shows: the menu's toggle, the page's
 * title, the loading indicator (the refresh button) and the account menu.
 */
export function ConsoleAppBar() {
  const isXSmall = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <HideOnScroll>
      <Bar className={classes.appBar} color="secondary">
        <Toolbar disableGutters variant={isXSmall ? 'regular' : 'dense'} className={classes.toolbar}>
          <SidebarToggleButton className={classes.menuButton} />
          <TitlePortal className={classes.title} />
          <LoadingIndicator />
          <ConsoleUserMenu />
        </Toolbar>
      </Bar>
    </HideOnScroll>
  );
}
