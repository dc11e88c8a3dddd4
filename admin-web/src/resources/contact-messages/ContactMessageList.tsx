import { ADMIN_PAGE_SIZE, type ContactMessage } from '@forum/contracts';
import MailOutlined from '@mui/icons-material/MailOutlined';
import { Box, Link as MuiLink, Typography } from '@mui/material';
import { DateField, List, useRecordContext } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import { ColumnsOrCards, type ListColumn } from '../../components/RecordCards';
import { ExpandableText } from './ExpandableText';

type ContactRecord = ContactMessage & { id: string };

/** The sender's address, to answer them from the operator's own mail program. */
function EmailField() {
  const message = useRecordContext<ContactRecord>();
  if (!message) return null;
  return (
    <MuiLink href={`mailto:${message.email}`} variant="body2" sx={{ whiteSpace: { md: 'nowrap' }, overflowWrap: 'anywhere' }}>
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

const CONTACT_COLUMNS: ListColumn[] = [
  { label: 'Name', source: 'name' },
  { label: 'Email', source: 'email', field: <EmailField /> },
  { label: 'Received', source: 'receivedAt', field: <DateField source="receivedAt" showTime /> },
  { label: 'Message', source: 'message', field: <MessageField /> },
];

/** The inbox of the Contact page (/admin/contact-messages), newest first: who wrote, their email, when, and what. */
export function ContactMessageList() {
  return (
    <List
      exporter={false}
      title="Contact messages"
      actions={false}
      perPage={ADMIN_PAGE_SIZE}
      sort={{ field: 'receivedAt', order: 'DESC' }}
      pagination={<ListPagination />}
      empty={<NoMessages />}
    >
      <ColumnsOrCards<ContactRecord> columns={CONTACT_COLUMNS} label={(message) => `Message from ${message.name}`} />
    </List>
  );
}
