import { ADMIN_PAGE_SIZE } from '@forum/contracts';
import { Card, CardActions, CardContent, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import { DataTable, List, RecordContextProvider, SearchInput, useListContext } from 'react-admin';
import { MakeAdminButton } from './MakeAdminButton';
import { MembershipField } from './MembershipField';
import { RoleField } from './RoleField';
import type { UserRecord } from './types';
import { UserHistoryLink } from './UserHistoryLink';
import { UserPagination } from './UserPagination';

// GET /api/admin/users?filter={"q":…}: name or email contains the text, ignoring case
const userFilters = [<SearchInput key="q" source="q" alwaysOn slotProps={{ htmlInput: { 'aria-label': 'Search users' } }} />];

const Column = DataTable.Col<UserRecord>;

/** The actions of a user's row or card. */
function UserActions() {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <MakeAdminButton />
      <UserHistoryLink />
    </Stack>
  );
}

/** On a phone, a card per user: name, email, role and membership, the actions. */
function UserCards() {
  const { data } = useListContext<UserRecord>();
  return (
    <Stack spacing={1.5} sx={{ p: 1 }}>
      {(data ?? []).map((user) => (
        <RecordContextProvider key={user.id} value={user}>
          <Card variant="outlined" component="article" aria-label={user.name}>
            <CardContent sx={{ pb: 1 }}>
              <Typography sx={{ fontWeight: 600 }}>{user.name}</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {user.email}
              </Typography>
              <Stack direction="row" spacing={1.5} sx={{ mt: 1, alignItems: 'center' }}>
                <RoleField />
                <MembershipField />
              </Stack>
            </CardContent>
            <CardActions sx={{ px: 2, pb: 2 }}>
              <UserActions />
            </CardActions>
          </Card>
        </RecordContextProvider>
      ))}
    </Stack>
  );
}

/** Spec §2 Manage Users (/admin/manage-users): search, the users 10 a page, 'Make Admin'; cards on a phone. */
export function UserList() {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  return (
    <List
      exporter={false}
      title="Manage Users"
      actions={false}
      filters={userFilters}
      perPage={ADMIN_PAGE_SIZE}
      sort={{ field: 'name', order: 'ASC' }}
      pagination={<UserPagination />}
    >
      {phone ? (
        <UserCards />
      ) : (
        <DataTable bulkActionButtons={false} rowClick={false}>
          <Column source="name" label="Name" />
          <Column source="email" label="Email" />
          <Column source="role" label="Role">
            <RoleField />
          </Column>
          <Column source="isMember" label="Membership">
            <MembershipField />
          </Column>
          <Column label="Actions" disableSort>
            <UserActions />
          </Column>
        </DataTable>
      )}
    </List>
  );
}
