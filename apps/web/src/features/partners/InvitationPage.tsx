import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { PAYMENT_COLLECTOR_LABEL } from '@tourdesk/contracts';
import { Link, useNavigate, useParams } from 'react-router';
import { notifySuccess } from '../../shared/lib/toast';
import { useAnswerPartnerInvitationMutation, usePartnerInvitationQuery } from './api';
import { PARTNERS_PATH, partnerPath, percent } from './parts';

/** /sales/partners/invitation/{token}: an e-mail invitation, answered for the organisation one is signed in to. */
export default function InvitationPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { data, isError, isLoading } = usePartnerInvitationQuery(token, { skip: !token });
  const [answer, { isLoading: busy }] = useAnswerPartnerInvitationMutation();
  if (isLoading) return <Loader />;
  if (isError || !data)
    return (
      <Alert color="red" variant="light" title="Invitation not found" maw={640}>
        This invitation does not exist or was already answered. <Link to={PARTNERS_PATH}>Go to your partners</Link>.
      </Alert>
    );
  const respond = async (accept: boolean) => {
    const res = await answer({ token, accept });
    if (!('data' in res)) return;
    notifySuccess(accept ? 'Partnership accepted.' : 'Invitation declined.');
    navigate(accept && res.data ? partnerPath(res.data.id) : PARTNERS_PATH, { replace: true });
  };
  return (
    <Paper withBorder p="lg" radius="md" maw={640}>
      <Stack>
        <Title order={2}>Partnership invitation</Title>
        <Text>
          <b>{data.inviter.name}</b> ({data.inviter.subdomain}) invites your organisation to be its {data.invitee_side === 'reseller' ? 'reseller: you sell its offers' : 'supplier: it sells your offers'}.
        </Text>
        <Stack gap={4}>
          <Text size="sm">Pricing: {data.pricing === 'commission' ? `${percent(data.commission_bp)} commission on the retail price` : 'net rates per pricing category'}</Text>
          <Text size="sm">Payment: {PAYMENT_COLLECTOR_LABEL[data.payment_collector]}</Text>
          <Text size="sm">
            Valid {data.valid_from ? `from ${data.valid_from}` : 'from now'} {data.valid_to ? `to ${data.valid_to}` : 'without end'}
          </Text>
          <Text size="sm">Shared offers: {data.offer_count}</Text>
        </Stack>
        <Text size="sm" c="dimmed">
          Accepting binds the organisation you are signed in to.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void respond(false)} loading={busy}>
            Decline
          </Button>
          <Button onClick={() => void respond(true)} loading={busy}>
            Accept
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
