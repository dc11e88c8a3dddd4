import { MODERATION_REASON_RULE, SUSPENSION_PERIODS, type SuspendMemberRequest, type SuspensionPeriod } from '@forum/contracts';
import { DateTimeInput, FormDataConsumer, RadioButtonGroupInput, required, useDataProvider } from 'react-admin';
import type { ForumDataProvider } from '../dataProvider';
import { ReasonDialog } from './ReasonDialog';

const PERIOD_LABELS: Record<SuspensionPeriod, string> = {
  day: 'A day',
  week: 'A week',
  date: 'Until a date',
  indefinite: 'Until lifted',
};
const PERIOD_CHOICES = SUSPENSION_PERIODS.map((id) => ({ id, name: PERIOD_LABELS[id] }));

/** The suspension request of the dialog's values: `until` (the date input's local time) as an ISO time, for the period `date` only. */
export function suspensionOf(values: Record<string, unknown>, about?: SuspendMemberRequest['about']): SuspendMemberRequest {
  const period = values.period as SuspensionPeriod;
  const until = period === 'date' && values.until ? new Date(values.until as string | Date).toISOString() : undefined;
  return { reason: typeof values.reason === 'string' ? values.reason : '', period, ...(until && { until }), ...(about && { about }) };
}

/**
 * Suspend a member (issue #43.5): for a day, a week, until a date, or until lifted, with the reason
 * they are shown. They can still sign in and read. `about` names the reported item it comes from.
 */
export function SuspendDialog({
  open,
  onClose,
  member,
  about,
}: {
  open: boolean;
  onClose: () => void;
  member: { id: string; name: string };
  about?: SuspendMemberRequest['about'];
}) {
  const dataProvider = useDataProvider<ForumDataProvider>();
  return (
    <ReasonDialog
      open={open}
      onClose={onClose}
      title={`Suspend ${member.name}?`}
      description="They can still sign in and read the forum, but cannot post, comment, vote, report or change their profile. They are told the reason and the end."
      rule={MODERATION_REASON_RULE}
      defaultValues={{ period: 'day' }}
      fields={
        <>
          <RadioButtonGroupInput source="period" label="For how long" choices={PERIOD_CHOICES} validate={required()} row={false} />
          <FormDataConsumer>
            {({ formData }) =>
              (formData as { period?: string }).period === 'date' ? (
                <DateTimeInput source="until" label="Ends at" validate={required('Choose the end of the suspension')} />
              ) : null
            }
          </FormDataConsumer>
        </>
      }
      confirmLabel="Suspend"
      run={(values) => dataProvider.suspendMember(member.id, suspensionOf(values, about))}
      success={`${member.name} is suspended`}
      failure="Failed to suspend the member"
    />
  );
}
