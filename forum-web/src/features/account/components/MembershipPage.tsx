import { ErrorCode, FREE_POST_LIMIT, MEMBERSHIP_PRICE } from '@forum/contracts';
import CheckCircle from '@mui/icons-material/CheckCircle';
import WorkspacePremium from '@mui/icons-material/WorkspacePremium';
import { Alert, Box, Button, Card, CardContent, Chip, List, ListItem, ListItemIcon, ListItemText, Skeleton, Stack, Typography } from '@mui/material';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { useNavigate } from 'react-router-dom';
import { BusyButton } from '../../../components/BusyButton';
import { useDialogs } from '../../../components/dialog/DialogProvider';
import { useAuthState } from '../../../lib/auth';
import { GOLD, GOLD_DARK, GOLD_PALE, GOLD_TEXT } from '../../../components/profile/gold';
import { serverError } from '../../../lib/http-error';
import { useGetMeQuery } from '../api/get-me';
import { usePurchaseMembershipMutation } from '../api/purchase-membership';

const BENEFITS = [`Unlimited posts (more than ${FREE_POST_LIMIT})`, 'Priority support', 'Exclusive content access'];

/** Spec §2 Membership (upgrade): the Gold Membership card and its one-time purchase. */
export function MembershipPage() {
  const { user } = useAuthState();
  const { data: me, isLoading } = useGetMeQuery(undefined, { skip: !user });
  const [purchase, { isLoading: busy }] = usePurchaseMembershipMutation();
  const dialogs = useDialogs();
  const navigate = useNavigate();
  const isMember = me?.isMember ?? false;

  const upgrade = async () => {
    if (!user) {
      await dialogs.alert({ title: 'Error', message: 'You need to login first' });
      return;
    }
    try {
      await purchase(user.email).unwrap();
    } catch (error) {
      // bought meanwhile (another tab): the page turns into the member's view once /api/me is read again
      if (serverError(error as FetchBaseQueryError)?.code === ErrorCode.ALREADY_MEMBER) return;
      await dialogs.alert({ title: 'Error', message: 'Payment failed. Please try again.' });
      return;
    }
    // the dialog lives above the router: it stays open over the dashboard
    void dialogs.alert({ title: 'Success!', message: 'You are now a premium member with Gold badge!' });
    void navigate('/dashboard');
  };

  return (
    <Stack spacing={4} sx={{ alignItems: 'center' }}>
      <Box sx={{ textAlign: 'center' }}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
          Upgrade to Premium
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          One payment, no subscription: the Gold badge and every benefit below, for good.
        </Typography>
      </Box>

      <Card component="section" aria-labelledby="gold-membership-title" sx={{ width: '100%', maxWidth: 440, borderColor: GOLD, borderWidth: 2 }}>
        <Box sx={{ bgcolor: GOLD, color: '#2b2100', px: 3, py: 2.5, textAlign: 'center' }}>
          <WorkspacePremium aria-hidden sx={{ fontSize: 48 }} />
          <Typography id="gold-membership-title" variant="h5" component="h2" sx={{ fontWeight: 700 }}>
            Gold Membership
          </Typography>
        </Box>
        <CardContent sx={{ p: 3 }}>
          <Stack spacing={2.5} sx={{ alignItems: 'center' }}>
            <Chip
              icon={<WorkspacePremium />}
              label="Gold Badge"
              sx={{ bgcolor: GOLD_PALE, color: GOLD_TEXT, fontWeight: 700, '& .MuiChip-icon': { color: GOLD } }}
            />
            <List dense aria-label="Benefits" sx={{ alignSelf: 'stretch' }}>
              {BENEFITS.map((benefit) => (
                <ListItem key={benefit} disableGutters>
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <CheckCircle color="success" aria-hidden />
                  </ListItemIcon>
                  <ListItemText primary={benefit} />
                </ListItem>
              ))}
            </List>
            <Box sx={{ textAlign: 'center' }}>
              <Typography component="p" variant="h3" sx={{ fontWeight: 800 }}>
                {MEMBERSHIP_PRICE.display}
              </Typography>
              <Typography color="text.secondary">one-time</Typography>
            </Box>
            {isLoading ? (
              <Skeleton variant="rounded" width="100%" height={48} />
            ) : isMember ? (
              <>
                {/* nothing to press, yet readable: the badge's gold rather than the grey of a disabled button */}
                <Button fullWidth size="large" variant="contained" disabled sx={{ '&.Mui-disabled': { bgcolor: GOLD_PALE, color: GOLD_TEXT } }}>
                  You are already a member
                </Button>
                <Alert severity="success" sx={{ alignSelf: 'stretch' }}>
                  You are enjoying premium benefits!
                </Alert>
              </>
            ) : (
              // busy, it keeps its gold (and the focus of a keyboard user) while it says 'Processing...'
              <BusyButton
                fullWidth
                size="large"
                variant="contained"
                onClick={() => void upgrade()}
                busy={busy}
                sx={{ bgcolor: GOLD_DARK, '&:hover': { bgcolor: '#735a00' } }}
              >
                {busy ? 'Processing...' : 'Upgrade Now'}
              </BusyButton>
            )}
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}
