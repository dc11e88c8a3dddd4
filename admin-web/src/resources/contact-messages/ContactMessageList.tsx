import { ADMIN_PAGE_SIZE, type ContactMessage } from '@forum/contracts';
import MailOutlined from '@mui/icons-material/MailOutlined';
import { Box, Link as MuiLink, Typography } from '@mui/material';
import { DataTable, DateField, List, Pagination, useRecordContext } from 'react-admin';
import { ExpandableText } from './ExpandableText';

type ContactRecord = ContactMessage & { id: string };

const Column = DataTable.Col<ContactRecord>;

/** The sender's address, to answer them from the operator's own mail program. */
function EmailField() {
  const message = useRecordContext<ContactRecord>();
  if (!message) return null;
  return (
    <MuiLink href={`mailto:${message.email}`} variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {message.email}
    </MuiLink>
  );
}

function MessageField() {
  const message = useRecordContext<ContactRecord>();
  if (!message) return null;
  return <ExpandableText text={message.message} label={`the message from ${message.name}`} />;
}

function NoMessages() {
  return (
    <Box sx={{ textAlign: 'center', py: 6, px: 2, width: '100%' }}>
      <MailOutlined sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />
      <Typography variant="h6" component="p">
        No contact messages yet
      </Typography>
      <Typography variant="body2" color="text.secondary">
        What visitors send from the forum's Contact page appears here.
      </Typography>
    </Box>
  );
}

/** The inbox of the Contact page (/admin/contact-messages), newest first: who wrote, their email, when, and what. */
export function ContactMessageList() {
  return (
    <List
      exporter={false}
      title="Contact messages"
      actions={false}
      perPage={ADMIN_PAGE_SIZE}
      sort={{ field: 'receivedAt', order: 'DESC' }}
      pagination={<Pagination rowsPerPageOptions={[ADMIN_PAGE_SIZE, 25, 50]} />}
      empty={<NoMessages />}
    >
      <DataTable bulkActionButtons={false} rowClick={false}>
        <Column source="name" label="Name" disableSort />
        <Column source="email" label="Email" disableSort>
          <EmailField />
        </Column>
        <Column source="receivedAt" label="Received" disableSort>
          <DateField source="receivedAt" showTime />
        </Column>
        <Column source="message" label="Message" disableSort>
          <MessageField />
        </Column>
      </DataTable>
    </List>
  );
}
