import { Alert, Anchor, Button, Group, List, Loader, Modal, SegmentedControl, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle, IconLock } from '@tabler/icons-react';
import { LAYOUT_WIDTHS, type TSubscription, type TSubscriptionTier } from '@tourdesk/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { errorMessages, type ApiError } from '../../shared/api/errors';
import { refreshUser as refreshSessionUser } from '../../shared/auth/refresh-user';
import { useAppDispatch, useAppSelector } from '../../shared/hooks/store';
import { notifyErrors, notifyInfo, notifySuccess } from '../../shared/lib/toast';
import { subscriptionApi, useChooseSubscriptionMutation, useManageSubscriptionMutation, useSubscriptionQuery, useSubscriptionTiersQuery } from './api';
import { CurrentPlan } from './CurrentPlan';
import { leaveFor } from './leave';
import { forgetCheckout, peekCheckout, rememberCheckout } from './pending';
import { PlanCard } from './PlanCard';
import { useSubscriptionT } from './texts';
import { bestYearlySaving, billedWords, dateWords, isFree, paidSubscriptionRuns, planAction, priceWords, whatIsLost, type Interval, type PlanAction } from './words';

type Kind = TSubscriptionTier['kind'];
export const PLANS_PATH: Record<Kind, string> = { supplier: '/settings/subscription/supplier-plans', affiliate: '/settings/subscription/affiliate-plans' };

/** Two notices in English (subscription/en.ts: 'ownersOnly.title', nothingChanged), for the tests. */
export const OWNERS_ONLY_TITLE = 'Only an Owner changes the plan';
export const NOTHING_CHANGED = 'Nothing was changed: you left Stripe without subscribing.';
/** How long the page waits for Stripe's event to make a change current before saying it is late. */
export const AWAIT_MS = 30_000;

const isForbidden = (error: unknown) => typeof error === 'object' && error !== null && 'status' in error && error.status === 403;

/** A change the page waits for Stripe's event to make current (the plan, and the interval of a paid one). */
interface Target {
  tier: string | null;
  name: string;
  interval: Interval | null;
}
const reached = (s: TSubscription, t: Target) =>
  t.tier === null ? paidSubscriptionRuns(s) : s.tier.id === t.tier && (t.interval === null || isFree(s.tier) || s.interval === t.interval);

interface Confirming {
  tier: TSubscriptionTier;
  action: Exclude<PlanAction, { kind: 'current' }>;
}

/**
 * /settings/subscription/supplier-plans and /settings/subscription/affiliate-plans: the
 * organisation's plan (status, trial, billing, usage of its limits, Stripe's customer portal) and
 * the plans of each kind, by the month or the year. An Owner chooses a plan of the organisation's
 * own kind (the server refuses the other's): a paid one through Stripe Checkout, which sends the
 * browser back with ?subscribed=1 (paid) or to the bare page (left); a free one, or a change of a
 * running subscription, at once after asking, confirmed by Stripe's event.
 */
export default function SubscriptionPage() {
  const t = useSubscriptionT();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [params, setParams] = useSearchParams();
  const tab: Kind = pathname.replace(/\/+$/, '').endsWith('affiliate-plans') ? 'affiliate' : 'supplier';

  const user = useAppSelector((s) => s.auth.user);
  const isOwner = Boolean(user?.role?.is_owner);
  const timeZone = user?.base_account?.time_zone;

  // Back from Stripe Checkout: paid (?subscribed=1: wait for Stripe's event to make the plan
  // current) or left (the plan chosen before leaving was remembered in this tab: nothing changed).
  const [arrival] = useState(() => ({ subscribed: params.get('subscribed') === '1', pending: peekCheckout() }));
  const [awaiting, setAwaiting] = useState<Target | null>(() =>
    !arrival.subscribed ? null : arrival.pending ? { tier: arrival.pending.tier, name: arrival.pending.name, interval: arrival.pending.interval } : { tier: null, name: '', interval: null },
  );
  const tiersQuery = useSubscriptionTiersQuery();
  // Asked every second until the change waited for is current: the render that shows it current
  // stops the polling (not the user's features read afterwards, which a poll could overtake).
  const cached = subscriptionApi.endpoints.subscription.useQueryState().data;
  const polling = Boolean(awaiting && !(cached && reached(cached, awaiting)));
  const subQuery = useSubscriptionQuery(undefined, { refetchOnMountOrArgChange: true, pollingInterval: polling ? 1000 : 0 });
  const subscription = subQuery.data;
  /** The change waited for is current now (or nothing is waited for). */
  const arrived = Boolean(awaiting && subscription && reached(subscription, awaiting));
  const waiting = awaiting && !arrived ? awaiting : null;
  const tiers = tiersQuery.data;

  const [choose] = useChooseSubscriptionMutation();
  const [manage] = useManageSubscriptionMutation();
  const [forbidden, setForbidden] = useState<string | null>(null);
  const [busyTier, setBusyTier] = useState<string | null>(null);
  const [managing, setManaging] = useState(false);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [shownChoice, setShown] = useState<Interval | null>(null);
  const shown: Interval = shownChoice ?? ((subscription && paidSubscriptionRuns(subscription) && subscription.interval) || 'month');

  /** A refused call: a 403 is the one notice on the page; anything else is toasted as everywhere. */
  const reportError = useCallback((error: ApiError) => {
    if (isForbidden(error)) setForbidden(errorMessages(error)[0] ?? OWNERS_ONLY_TITLE);
    else notifyErrors(errorMessages(error));
  }, []);

  // The plan decides the features the menu and the guards know: read the user again.
  const refreshUser = useCallback(() => refreshSessionUser(dispatch), [dispatch]);

  // Once per arrival: the address tidied, the remembered choice forgotten, a checkout left said so.
  const arrivalHandled = useRef(false);
  useEffect(() => {
    if (arrivalHandled.current) return;
    arrivalHandled.current = true;
    forgetCheckout();
    if (arrival.subscribed) {
      setParams(
        (p) => {
          p.delete('subscribed');
          return p;
        },
        { replace: true },
      );
    } else if (arrival.pending) {
      notifyInfo(t('nothingChanged'), { toastId: 'subscription-return' });
    }
  }, [arrival, setParams, t]);

  // Back from Stripe with the browser's Back button, the page as it was left (the back/forward
  // cache): nothing is busy any more, and nothing was changed.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      setBusyTier(null);
      setManaging(false);
      if (peekCheckout()) {
        forgetCheckout();
        notifyInfo(t('nothingChanged'), { toastId: 'subscription-return' });
      }
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [t]);

  // Stripe's event has made the change current: said once, and the user's features read again.
  const announced = useRef<Target | null>(null);
  useEffect(() => {
    if (!awaiting || !arrived || !subscription || announced.current === awaiting) return;
    announced.current = awaiting;
    const name = subscription.tier.name;
    notifySuccess(
      subscription.status === 'trialing' && subscription.trial_ends_at
        ? t('planNowTrial', { name, date: dateWords(subscription.trial_ends_at, t.locale, timeZone) })
        : t('planNow', { name }),
      { toastId: 'subscription-return' },
    );
    const done = awaiting;
    void refreshUser().finally(() => setAwaiting((a) => (a === done ? null : a)));
  }, [awaiting, arrived, subscription, t, timeZone, refreshUser]);

  // Asked every second while Stripe's event is awaited (above); said to be late after AWAIT_MS.
  useEffect(() => {
    if (!waiting) return;
    const late = setTimeout(() => {
      setAwaiting((a) => (a === waiting ? null : a));
      notifyInfo(t('late', { name: waiting.tier ? waiting.name : t('yourNewPlan') }), { toastId: 'subscription-return' });
    }, AWAIT_MS);
    return () => clearTimeout(late);
  }, [waiting, t]);

  /** Chooses a plan: Stripe Checkout for a new paid one, else a change at once (free) or with Stripe's event. */
  const change = async (tier: TSubscriptionTier, interval: Interval) => {
    setBusyTier(tier.id);
    const res = await choose({ tier: tier.id, interval });
    if ('error' in res) {
      setBusyTier(null);
      reportError(res.error);
      return false;
    }
    if (res.data.url) {
      rememberCheckout({ tier: tier.id, name: tier.name, interval });
      leaveFor(res.data.url); // stays busy until the browser has left
      return true;
    }
    setBusyTier(null);
    const target: Target = { tier: tier.id, name: tier.name, interval: isFree(tier) ? null : interval };
    if (reached(res.data.subscription, target)) {
      notifySuccess(t('planNow', { name: tier.name }), { toastId: 'subscription-return' });
      void refreshUser();
    } else {
      setAwaiting(target);
    }
    return true;
  };

  const onChoose = (tier: TSubscriptionTier, action: Exclude<PlanAction, { kind: 'current' }>) => {
    if (!subscription) return;
    // A new paid subscription is confirmed on Stripe's own page; a change that takes effect at once is asked here.
    if (!isFree(tier) && !paidSubscriptionRuns(subscription)) void change(tier, action.interval);
    else {
      setConfirming({ tier, action });
      setConfirmOpen(true);
    }
  };

  const openPortal = async () => {
    setManaging(true);
    const res = await manage();
    if ('error' in res) {
      setManaging(false);
      reportError(res.error);
      return;
    }
    leaveFor(res.data.url);
  };

  const header = (
    <div>
      <Title order={2}>{t('title')}</Title>
      <Text c="dimmed">{t('description')}</Text>
    </div>
  );

  const loadError = subQuery.error ?? tiersQuery.error;
  if (loadError && !(subscription && tiers)) {
    return (
      <Stack gap="md" maw={LAYOUT_WIDTHS.contentNarrow}>
        {header}
        <Alert color="red" variant="light" icon={<IconAlertTriangle />} title={t('loadError')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessages(loadError as ApiError)[0]}</Text>
            <Button
              size="xs"
              variant="default"
              loading={subQuery.isFetching || tiersQuery.isFetching}
              onClick={() => {
                void subQuery.refetch();
                void tiersQuery.refetch();
              }}
            >
              {t('tryAgain')}
            </Button>
          </Stack>
        </Alert>
      </Stack>
    );
  }
  if (!subscription || !tiers) {
    return (
      <Stack gap="md" maw={LAYOUT_WIDTHS.contentNarrow}>
        {header}
        <Loader size="sm" aria-label={t('loading')} />
      </Stack>
    );
  }

  const orgKind = subscription.tier.kind;
  const ownKind = tab === orgKind;
  const shownTiers = tiers.filter((t) => t.kind === tab);
  const ownTiers = tiers.filter((t) => t.kind === orgKind);
  const freeTier = ownTiers.find(isFree);
  const saving = bestYearlySaving(shownTiers);
  const rows = {
    saving: shownTiers.some((tier) => priceWords(tier, shown, t).saving !== null),
    trial: shownTiers.some((t) => t.trial_days > 0 && !isFree(t)),
  };
  const canChoose = isOwner && !forbidden;

  return (
    <Stack gap="lg" maw={LAYOUT_WIDTHS.contentNarrow}>
      {header}

      {(!isOwner || forbidden) && (
        <Alert color="gray" variant="light" icon={<IconLock />} title={t('ownersOnly.title')} data-testid="owners-only">
          {forbidden && forbidden !== OWNERS_ONLY_TITLE ? `${forbidden} ` : ''}
          {t('ownersOnly.body')}
        </Alert>
      )}

      {!subscription.billing_available && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} title={t('billingUnavailable.title')} data-testid="billing-unavailable">
          {t('billingUnavailable.body')}
        </Alert>
      )}

      <CurrentPlan
        subscription={subscription}
        freeTier={freeTier}
        timeZone={timeZone}
        canManage={subscription.can_manage && canChoose}
        managing={managing}
        onManage={() => void openPortal()}
        awaiting={waiting ? waiting.name : null}
      />

      <Tabs value={tab} onChange={(v) => v && navigate(PLANS_PATH[v as Kind])} keepMounted={false}>
        <Tabs.List>
          {(['supplier', 'affiliate'] as const).map((k) => (
            <Tabs.Tab key={k} value={k}>
              {t(`tab.${k}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>

      {!ownKind && (
        <Alert color="blue" variant="light" icon={<IconInfoCircle />} title={t(`otherKind.title.${tab}`)} data-testid="other-kind">
          <Text size="sm">
            {t(`otherKind.body.${orgKind}`)}{' '}
            <Anchor component={Link} to={PLANS_PATH[orgKind]} size="sm">
              {t(`otherKind.link.${orgKind}`)}
            </Anchor>
          </Text>
        </Alert>
      )}

      {saving && (
        <Group justify="space-between" align="center" gap="sm">
          <SegmentedControl
            aria-label={t('interval.label')}
            value={shown}
            onChange={(v) => setShown(v as Interval)}
            data={[
              { value: 'month', label: t('interval.month') },
              { value: 'year', label: t(saving.upTo ? 'interval.yearUpTo' : 'interval.year', { percent: saving.percent }) },
            ]}
          />
          <Text size="sm" c="dimmed">
            {t('exVat')}
          </Text>
        </Group>
      )}

      <SimpleGrid cols={{ base: 1, sm: 2, md: Math.min(3, Math.max(shownTiers.length, 1)) }} spacing="lg" data-testid="plans">
        {shownTiers.map((tier) => {
          const action = ownKind && canChoose ? planAction(tier, subscription, shown, ownTiers, t) : null;
          return (
            <PlanCard
              key={tier.id}
              tier={tier}
              shown={shown}
              current={tier.id === subscription.tier.id}
              action={action}
              unavailable={!subscription.billing_available && !isFree(tier) ? t('notAvailable') : null}
              busy={busyTier === tier.id}
              rows={rows}
              onChoose={(a) => onChoose(tier, a)}
            />
          );
        })}
      </SimpleGrid>
      {shownTiers.length === 0 && <Text c="dimmed">{t(`none.${tab}`)}</Text>}

      <ConfirmChange
        confirming={confirming}
        opened={confirmOpen}
        subscription={subscription}
        freeTier={freeTier}
        timeZone={timeZone}
        onClose={() => setConfirmOpen(false)}
        onConfirm={async (c) => {
          const ok = await change(c.tier, c.action.interval);
          if (ok) setConfirmOpen(false);
        }}
      />
    </Stack>
  );
}

/** Asks before a change that takes effect at once: what it costs or cancels, and what the organisation loses. */
function ConfirmChange({
  confirming: c,
  opened,
  subscription,
  freeTier,
  timeZone,
  onClose,
  onConfirm,
}: {
  confirming: Confirming | null;
  opened: boolean;
  subscription: TSubscription;
  freeTier: TSubscriptionTier | undefined;
  timeZone: string | undefined;
  onClose: () => void;
  onConfirm: (c: Confirming) => Promise<void>;
}) {
  const t = useSubscriptionT();
  const [busy, setBusy] = useState(false);
  if (!c) return null;
  const { tier, action } = c;
  const lost = whatIsLost(tier, subscription, t);
  const runs = paidSubscriptionRuns(subscription);
  const name = tier.name;
  const title = action.kind === 'switch' ? t('confirm.switchTitle', { label: action.label }) : isFree(tier) ? t('confirm.moveTitle', { name }) : t('confirm.changeTitle', { name });
  const confirmLabel = action.kind === 'switch' ? action.label : isFree(tier) ? t('confirm.move', { name }) : t('confirm.change', { name });
  const downgrade = action.kind === 'downgrade';
  return (
    <Modal opened={opened} onClose={() => !busy && onClose()} title={title} centered>
      <Stack gap="sm">
        {isFree(tier) ? (
          <Text size="sm">
            {t('confirm.free', { name })}
            {runs ? ` ${t('confirm.freeCancels', { name: subscription.tier.name })}` : ''}
          </Text>
        ) : (
          <Text size="sm">
            {t('confirm.paid', { name, price: billedWords(tier, action.interval, t) })}{' '}
            {subscription.status === 'trialing' && subscription.trial_ends_at
              ? t('confirm.paidTrial', { date: dateWords(subscription.trial_ends_at, t.locale, timeZone) })
              : t('confirm.paidProrated')}
          </Text>
        )}
        {lost.features.length > 0 && (
          <div>
            <Text size="sm" fw={500}>
              {t('confirm.loses')}
            </Text>
            <List size="sm" spacing={2} aria-label={t('confirm.losesLabel')}>
              {lost.features.map((f) => (
                <List.Item key={f}>{f}</List.Item>
              ))}
            </List>
          </div>
        )}
        {lost.over.length > 0 && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle />} p="sm">
            <Stack gap={4}>
              {lost.over.map((line) => (
                <Text key={line} size="sm">
                  {line}
                </Text>
              ))}
              <Text size="sm">{t('confirm.nothingDeleted')}</Text>
            </Stack>
          </Alert>
        )}
        {isFree(tier) && freeTier?.id === tier.id && !runs && subscription.status === 'trialing' && (
          <Text size="sm" c="dimmed">
            {t('confirm.trialEnds', { name: subscription.tier.name })}
          </Text>
        )}
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {action.kind === 'switch' ? t(subscription.interval === 'year' ? 'confirm.keepYearly' : 'confirm.keepMonthly') : t('confirm.keep', { name: subscription.tier.name })}
          </Button>
          <Button
            color={downgrade ? 'red' : undefined}
            loading={busy}
            onClick={async () => {
              setBusy(true);
              await onConfirm(c).finally(() => setBusy(false));
            }}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
