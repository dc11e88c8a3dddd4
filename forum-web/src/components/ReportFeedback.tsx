import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import { REPORT_FEEDBACK, type ReportPostRequest } from '@forum/contracts';
import { Box, FormControl, MenuItem, Select, Stack, Typography } from '@mui/material';
import { forwardRef, useEffect, useRef, useState } from 'react';

/** What a report says of its item: one of the spec's feedback options. */
export type Feedback = ReportPostRequest['feedback'];

/** Spec §2: what each feedback option of a report says (a comment's, a post's). */
export const FEEDBACK_LABELS: Record<Feedback, string> = {
  spam: 'This is spam',
  inappropriate: 'Inappropriate content',
  offensive: 'Offensive language',
};

/** The spec's "Select Feedback" choice of a report (a comment's, a post's), named by `label` for assistive technology. */
export function FeedbackSelect({
  value,
  onChange,
  label,
  disabled,
  minWidth = 190,
}: {
  value: Feedback | '';
  onChange: (feedback: Feedback) => void;
  label: string;
  disabled: boolean;
  minWidth?: number;
}) {
  return (
    <FormControl size="small" sx={{ minWidth }} disabled={disabled}>
      <Select
        value={value}
        displayEmpty
        onChange={(event) => {
          if (event.target.value) onChange(event.target.value);
        }}
        inputProps={{ 'aria-label': label }}
        renderValue={(chosen) =>
          chosen ? (
            FEEDBACK_LABELS[chosen]
          ) : (
            <Box component="span" sx={{ color: 'text.secondary' }}>
              Select Feedback
            </Box>
          )
        }
      >
        <MenuItem value="" disabled>
          Select Feedback
        </MenuItem>
        {REPORT_FEEDBACK.map((option) => (
          <MenuItem key={option} value={option}>
            {FEEDBACK_LABELS[option]}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

/**
 * Whether the reader reported the item from here, and the ref of its ReportedMark: Report is gone
 * once the report is in, so the reader's focus goes to what took its place.
 */
export function useReported() {
  const [reported, setReported] = useState(false);
  const reportedRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (reported) reportedRef.current?.focus();
  }, [reported]);
  return { reported, setReported, reportedRef };
}

/** "Reported", where Report was once the reader reported the item; focusable, so the focus can go there from Report. */
export const ReportedMark = forwardRef<HTMLDivElement>(function ReportedMark(_props, ref) {
  return (
    <Stack ref={ref} tabIndex={-1} direction="row" spacing={0.75} sx={{ alignItems: 'center', color: 'success.dark', outline: 'none' }}>
      <CheckCircleOutline fontSize="small" aria-hidden />
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        Reported
      </Typography>
    </Stack>
  );
});
