export interface NavLinkSpec {
  to: string;
  label: string;
  /** another app of the gateway (admin-web): a full page load, not a client-side route */
  external?: boolean;
}

/** Spec §2 Shell: membership and leaderboard join the links with sign-in, AdminDashboard for admins. */
export function linksFor(signedIn: boolean, admin: boolean): NavLinkSpec[] {
  return [
    { to: '/', label: 'Home' },
    ...(signedIn
      ? [
          { to: '/membership', label: 'Membership' },
          { to: '/leaderboard', label: 'Leaderboard' },
        ]
      : []),
    ...(admin ? [{ to: '/admin', label: 'AdminDashboard', external: true }] : []),
    { to: '/about', label: 'About' },
    { to: '/contact', label: 'Contact' },
  ];
}
