import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { notifySuccess } from '../../shared/lib/toast';
import { useAnswerPartnerInvitationMutation, usePartnerInvitationQuery } from './api';
import { PARTNERS_PATH, partnerPath, percent } from './parts';
import { usePartnersT } from './texts';

/** /sales/partners/invitation/{token}: an e-mail invitation, answered for the organisation one is signed in to. */
export default function InvitationPage() {
  const t = usePartnersT();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { data, isError, isLoading } = usePartnerInvitationQuery(token, { skip: !token });
  const [answer, { isLoading: busy }] = useAnswerPartnerInvitationMutation();
  if (isLoading) return <Loader />;
  if (isError || !data)
    return (
      <Alert color="red" variant="light" title={t('invitation.notFound')} maw={640}>
        {t('invitation.notFoundDetail')} <Link to={PARTNERS_PATH}>{t('invitation.goToPartners')}</Link>.
      </Alert>
    );
  const respond = async (accept: boolean) => {
    const res = await answer({ token, accept });
    if (!('data' in res)) return;
    notifySuccess(accept ? t('invitation.accepted') : t('invitation.declined'));
    navigate(accept && res.data ? partnerPath(res.data.id) : PARTNERS_PATH, { replace: true });
  };
  return (
    <Paper withBorder p="lg" radius="md" maw={640}>
      <Stack>
        <Title order={2}>{t('invitation.title')}</Title>
        <Text>{t(data.invitee_side === 'reseller' ? 'invitation.asReseller' : 'invitation.asSupplier', { name: data.inviter.name, subdomain: data.inviter.subdomain })}</Text>
        <Stack gap={4}>
          <Text size="sm">{data.pricing === 'commission' ? t('invitation.pricingCommission', { percent: percent(data.commission_bp) }) : t('invitation.pricingNet')}</Text>
          <Text size="sm">{t('invitation.payment', { collector: t(`collector.${data.payment_collector}`) })}</Text>
          <Text size="sm">
            {t('invitation.valid', {
              from: data.valid_from ? t('invitation.validFrom', { date: data.valid_from }) : t('invitation.fromNow'),
              to: data.valid_to ? t('invitation.validTo', { date: data.valid_to }) : t('invitation.noEnd'),
            })}
          </Text>
          <Text size="sm">{t('invitation.offers', { count: data.offer_count })}</Text>
        </Stack>
        <Text size="sm" c="dimmed">
          {t('invitation.binds')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void respond(false)} loading={busy}>
            {t('invitation.decline')}
          </Button>
          <Button onClick={() => void respond(true)} loading={busy}>
            {t('invitation.accept')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
