import { Alert, Badge, Button, Card, Code, Group, List, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconBrandStripe, IconCircleCheck, IconCircleX, IconLock, IconRefresh } from '@tabler/icons-react';
import { LAYOUT_WIDTHS, type TPaymentProvider } from '@tourdesk/contracts';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessages } from '../../shared/api/errors';
import { ConfirmButton } from '../../shared/components/ConfirmButton';
import { ErrorPanel } from '../../shared/components/ErrorPanel';
import { vatRate } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useConnectPaymentProviderMutation, useDisconnectPaymentProviderMutation, usePaymentProviderQuery } from './api';
import { leaveFor } from './leave';
import { describeRequirements } from './requirements';
import { usePaymentProvidersT } from './texts';

export const OWNERS_ONLY_MESSAGE = 'Only an Owner connects payment accounts';

const isForbidden = (error: unknown) => typeof error === 'object' && error !== null && 'status' in error && error.status === 403;
/** Everything Stripe needs is given and it lets the account take payments and pay them out. */
export const isComplete = (p: TPaymentProvider) => p.details_submitted && p.charges_enabled && p.payouts_enabled && p.requirements.length === 0;

/** Starts (or resumes) Stripe's onboarding: the server makes a link for one visit, the browser goes there. */
function useOnboarding() {
  const [connect, { isLoading }] = useConnectPaymentProviderMutation();
  const [leaving, setLeaving] = useState(false);
  const start = async () => {
    const res = await connect();
    if ('error' in res) return false; // the server's reason is toasted
    setLeaving(true); // stays busy until the browser has left
    leaveFor(res.data.url);
    return true;
  };
  return { start, busy: isLoading || leaving };
}

function StatusBadge({ ok, yes, no }: { ok: boolean; yes: string; no: string }) {
  return (
    <Badge
      variant="light"
      color={ok ? 'green' : 'orange'}
      leftSection={ok ? <IconCircleCheck size={14} /> : <IconCircleX size={14} />}
      data-ok={ok}
    >
      {ok ? yes : no}
    </Badge>
  );
}

function MissingSettings({ settings }: { settings: string[] }) {
  const t = usePaymentProvidersT();
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} title={t('notSetUp')}>
      <Stack gap="xs">
        <Text size="sm">
          {t('notSetUpDetail')}
        </Text>
        <List size="sm" spacing={4} aria-label={t('missingSettings')}>
          {settings.map((s) => (
            <List.Item key={s}>
              <Code>{s}</Code>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Alert>
  );
}

function NotConnected({ provider }: { provider: TPaymentProvider }) {
  const t = usePaymentProvidersT();
  const onboarding = useOnboarding();
  return (
    <Stack gap="sm">
      <Text size="sm">
        {t('how')}
      </Text>
      <Text size="sm">
        {provider.application_fee_bp > 0
          ? t('fee', { fee: vatRate(provider.application_fee_bp) })
          : t('noFee')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('goToStripe')}
      </Text>
      <Group>
        <Button leftSection={<IconBrandStripe size={18} />} loading={onboarding.busy} onClick={() => void onboarding.start()}>
          {t('connect')}
        </Button>
      </Group>
    </Stack>
  );
}

function Connected({ provider, refreshing, refresh }: { provider: TPaymentProvider; refreshing: boolean; refresh: () => void }) {
  const t = usePaymentProvidersT();
  const onboarding = useOnboarding();
  const [disconnect] = useDisconnectPaymentProviderMutation();
  const complete = isComplete(provider);
  const requirements = describeRequirements(provider.requirements, t);
  return (
    <Stack gap="md">
      <div>
        <Text size="sm" c="dimmed">
          {t('account')}
        </Text>
        <Code fz="sm" data-testid="stripe-account" style={{ wordBreak: 'break-all' }}>
          {provider.account}
        </Code>
      </div>
      <Group gap="xs" role="group" aria-label={t('accountStatus')}>
        <StatusBadge ok={provider.details_submitted} yes={t('detailsSubmitted')} no={t('detailsNotSubmitted')} />
        <StatusBadge ok={provider.charges_enabled} yes={t('chargesEnabled')} no={t('chargesNotEnabled')} />
        <StatusBadge ok={provider.payouts_enabled} yes={t('payoutsEnabled')} no={t('payoutsNotEnabled')} />
      </Group>
      {complete ? (
        <Text size="sm">{t('ready')}</Text>
      ) : (
        <Text size="sm">
          {provider.charges_enabled
            ? t('needsMore')
            : t('notYet')}
        </Text>
      )}
      {requirements.length > 0 && (
        <div>
          <Text size="sm" fw={500}>
            {t('stillNeeds')}
          </Text>
          <List size="sm" spacing={4} mt={4} aria-label={t('stillNeeds')}>
            {requirements.map((r) => (
              <List.Item key={r.keys.join(' ')} title={r.keys.join(', ')}>
                {r.known ? r.text : <Code>{r.text}</Code>}
              </List.Item>
            ))}
          </List>
          <Text size="xs" c="dimmed" mt={4}>
            {t('stillNeedsHint')}
          </Text>
        </div>
      )}
      <Group gap="sm">
        {!complete && (
          <Button leftSection={<IconBrandStripe size={18} />} loading={onboarding.busy} onClick={() => void onboarding.start()}>
            {t('continue')}
          </Button>
        )}
        <Button variant="default" leftSection={<IconRefresh size={16} />} loading={refreshing} onClick={refresh}>
          {t('refresh')}
        </Button>
        <ConfirmButton
          variant="light"
          color="red"
          title={t('disconnectTitle')}
          message={t('disconnectMessage')}
          confirmLabel={t('disconnect')}
          onConfirm={async () => {
            const res = await disconnect();
            if ('error' in res) return false;
            notifySuccess(t('disconnected'));
            return true;
          }}
        >
          {t('disconnect')}
        </ConfirmButton>
      </Group>
    </Stack>
  );
}

/**
 * /settings/payment-providers: an Owner connects the organisation's own Stripe account through
 * Stripe's hosted onboarding and sees its state. Stripe sends the browser back here with
 * ?stripe=return (done, or left for later) or ?stripe=refresh (its link expired: a new one is made).
 */
export default function PaymentProvidersPage() {
  const t = usePaymentProvidersT();
  const [params, setParams] = useSearchParams();
  const [cameBack] = useState(() => params.get('stripe'));
  const { data: provider, error, isLoading, isFetching, refetch } = usePaymentProviderQuery(undefined, { refetchOnMountOrArgChange: cameBack === 'return' });
  const onboarding = useOnboarding();
  const [resuming, setResuming] = useState(cameBack === 'refresh');

  // Once per return from Stripe (the parameter is then taken out of the address).
  const handled = useRef(false);
  useEffect(() => {
    if (!cameBack || handled.current) return;
    handled.current = true;
    setParams(
      (p) => {
        p.delete('stripe');
        return p;
      },
      { replace: true },
    );
    if (cameBack === 'return') notifySuccess(t('returned'), { toastId: 'stripe-return' });
    // The onboarding link expired before it was finished: a new one takes the Owner back.
    if (cameBack === 'refresh') void onboarding.start().then((left) => !left && setResuming(false));
  }, [cameBack, setParams, onboarding, t]);

  let body;
  if (isForbidden(error)) {
    return (
      <ErrorPanel
        logo={
          <ThemeIcon size={56} radius="xl" variant="light" color="gray">
            <IconLock size={30} />
          </ThemeIcon>
        }
        message={t('ownersOnly')}
        formalMessage={t('ownersOnlyDetail')}
        actionPath="/dashboard"
        actionLabel={t('goToDashboard')}
      />
    );
  } else if (error) {
    body = (
      <Alert color="red" variant="light" icon={<IconAlertTriangle />} title={t('notLoaded')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessages(error)[0]}</Text>
          <Button size="xs" variant="default" loading={isFetching} onClick={() => void refetch()}>
            {t('tryAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  } else if (isLoading || !provider || resuming) {
    body = (
      <Group gap="sm">
        <Loader size="sm" />
        {resuming && <Text size="sm">{t('resuming')}</Text>}
      </Group>
    );
  } else if (provider.missing_settings.length > 0) {
    body = <MissingSettings settings={provider.missing_settings} />;
  } else if (!provider.connected) {
    body = <NotConnected provider={provider} />;
  } else {
    body = <Connected provider={provider} refreshing={isFetching} refresh={() => void refetch()} />;
  }

  return (
    <Stack gap="md" maw={LAYOUT_WIDTHS.form}>
      <div>
        <Title order={2}>{t('title')}</Title>
        <Text c="dimmed">{t('description')}</Text>
      </div>
      <Card component="section" withBorder padding="lg" aria-label="Stripe">
        <Group gap="xs" mb="sm" justify="space-between">
          <Group gap="xs" wrap="nowrap">
            <ThemeIcon variant="light" color="violet" radius="md">
              <IconBrandStripe size={18} />
            </ThemeIcon>
            <Title order={4}>Stripe</Title>
          </Group>
          {provider?.connected && !provider.missing_settings.length && (
            <Badge variant="light" color={isComplete(provider) ? 'green' : 'orange'}>
              {isComplete(provider) ? t('connected') : t('unfinished')}
            </Badge>
          )}
        </Group>
        {body}
      </Card>
    </Stack>
  );
}
