import { AppBar, Logout, UserMenu, useGetIdentity } from 'react-admin';

/** The account menu's button is named after who is signed in, as it shows their name. */
function ConsoleUserMenu() {
  const { identity } = useGetIdentity();
  return (
    <UserMenu label={identity?.fullName ? `Profile of ${identity.fullName}` : 'Profile'}>
      <Logout />
    </UserMenu>
  );
}

/** react-admin's app bar with the console's account menu. */
export function ConsoleAppBar() {
  return <AppBar userMenu={<ConsoleUserMenu />} />;
}
