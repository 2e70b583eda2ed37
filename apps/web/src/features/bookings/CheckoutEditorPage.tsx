import { Alert, Badge, Button, Card, Divider, Group, NumberInput, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import type { TCart } from '@tourdesk/contracts';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { api } from '../../shared/api/api';
import { clock, formatDatePattern, formatDisplayDate, formatTime } from '../../shared/lib/dates';
import { useAppSelector } from '../../shared/hooks/store';
import { useCan } from '../../shared/hooks/use-can';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useBookingOffersQuery, useCartQuery, useCounterOffersQuery, useHoldSeatsMutation, useReleaseLineMutation, useSlotsQuery } from './api';
import { estimateTotal, positiveCounts } from './booking-logic';
import { CustomerStep } from './CustomerStep';
import { PartnerSale } from './PartnerSale';
import { SlotPicker, STATUS_COLOR } from './SlotPicker';
import { useBookingCatalog } from './use-booking-catalog';
import { useBookingsT } from './texts';

type CartLine = TCart['lines'][number];

// `checkoutPricingCategories`, not `categories`: endpoint names are global to the one api, and
// the inventory feature's `categories` (item categories) would otherwise answer in its place.
/** A partner's offer in the offer list (a reseller's counter sells it in the supplier's books). */
const PARTNER = 'partner:';

const catalogApi = api.injectEndpoints({
  endpoints: (build) => ({
    activeOffers: build.query<{ results: { id: string; title: string }[] }, void>({ query: () => ({ url: 'experiences/', params: { status: 'Active', page_size: 50, ordering: 'title' } }) }),
    checkoutPricingCategories: build.query<{ results: { id: string; label: string; occupies_seat: boolean }[] }, void>({ query: () => ({ url: 'pricing-categories/', params: { page_size: 50 } }) }),
  }),
});

/** Minutes and seconds until the hold runs out, ticking. */
function Countdown({ until }: { until: string }) {
  const tr = useBookingsT();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const left = Math.max(0, new Date(until).getTime() - now);
  const text = `${Math.floor(left / 60_000)}:${String(Math.floor((left % 60_000) / 1000)).padStart(2, '0')}`;
  return (
    <Badge leftSection={<IconClock size={12} />} color={left < 120_000 ? 'red' : 'blue'} variant="light" aria-label={tr('checkout.countdown')}>
      {left > 0 ? tr('checkout.heldFor', { time: text }) : tr('checkout.expired')}
    </Badge>
  );
}

/** /bookings/checkout-editor: book at the counter — offer, day, time, quantities and extras, customer and answers. */
export default function CheckoutEditorPage() {
  const tr = useBookingsT();
  const currency = useAppSelector((s) => s.auth.user?.base_account?.currency) ?? 'EUR';
  // Times are shown in the organisation's zone, whatever the browser's.
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  // An affiliate's plan may have no offers of its own; a supplier's no resales: each list only when the plan has it.
  const ownOffers = useCan([], ['experiences']);
  const partnerOffers = useCan(['Manage cart', 'Manage orders'], ['resales']);
  const { data: offers } = catalogApi.useActiveOffersQuery(undefined, { skip: !ownOffers });
  const { data: resold } = useCounterOffersQuery(undefined, { skip: !partnerOffers });
  const { data: categories } = catalogApi.useCheckoutPricingCategoriesQuery(undefined, { skip: !ownOffers });
  const catalog = useBookingCatalog();
  const [experience, setExperience] = useState<string | null>(null);
  const [month, setMonth] = useState(dayjs().format('YYYY-MM'));
  const [date, setDate] = useState<string | null>(null);
  const [slotId, setSlotId] = useState<string | null>(null);
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  const [extras, setExtras] = useState<Record<string, number>>({});
  const from = `${month}-01`;
  const to = dayjs(from).endOf('month').format('YYYY-MM-DD');
  const partnerOffer = experience?.startsWith(PARTNER) ? experience.slice(PARTNER.length) : null;
  const { data: slots } = useSlotsQuery({ experience: experience ?? '', from, to }, { skip: !experience || partnerOffer !== null });
  const { data: cart, refetch: refetchCart } = useCartQuery();
  // Lines a checkout refused (their hold ran out and the seats went, or their slot closed), with
  // the reason; they stay on screen, marked, until removed — even once the cart no longer has them.
  const [refusedLines, setRefusedLines] = useState<Record<string, { line: CartLine; detail: string }>>({});
  const refused = Object.fromEntries(Object.entries(refusedLines).map(([id, r]) => [id, r.detail]));
  const cartLines = cart?.lines ?? [];
  const shown = [...cartLines, ...Object.values(refusedLines).filter((r) => !cartLines.some((l) => l.id === r.line.id)).map((r) => r.line)];
  const onLineErrors = (byLine: Record<string, string>) =>
    setRefusedLines(Object.fromEntries(shown.filter((l) => byLine[l.id]).map((l) => [l.id, { line: l, detail: byLine[l.id]! }])));
  const removeLine = async (id: string) => {
    if (refused[id]) {
      // A refused line may be gone already: release it only if the cart still has it.
      const fresh = await refetchCart();
      if (fresh.data?.lines.some((l) => l.id === id)) await release(id);
      setRefusedLines(({ [id]: _gone, ...rest }) => rest);
    } else await release(id);
  };
  const [hold, holding] = useHoldSeatsMutation();
  const [release] = useReleaseLineMutation();
  const { data: offerSettings } = useBookingOffersQuery(experience ? [experience] : [], { skip: !experience || partnerOffer !== null || !catalog.canReadCatalog });
  const offeredExtraIds = offerSettings?.[0]?.id === experience ? (offerSettings?.[0]?.extras ?? []) : [];
  const offeredExtras = offeredExtraIds.flatMap((id) => catalog.items.get(id) ?? []);

  const slot = slots?.find((s) => s.id === slotId);
  const priceOf = (category: string) => slot?.prices.find((p) => p.pricing_category === category)?.retail_price;
  // Shown while choosing; once held, the cart line's total (the server's) is the one that counts.
  const total = estimateTotal(quantities, priceOf, extras, (id) => catalog.items.get(id)?.price);
  const participants = Object.values(quantities).reduce((sum, n) => sum + Math.max(0, n), 0);

  return (
    <Stack gap="lg">
      <Title order={2}>{tr('checkout.title')}</Title>
      <Select
        label={tr('checkout.offer')}
        maw={560}
        placeholder={tr('checkout.chooseOffer')}
        data={[
          ...(offers?.results.length ? [{ group: tr('checkout.yourOffers'), items: offers.results.map((o) => ({ value: o.id, label: o.title })) }] : []),
          ...(resold?.results.length ? [{ group: tr('checkout.partnersOffers'), items: resold.results.map((o) => ({ value: `${PARTNER}${o.id}`, label: `${o.title} · ${o.supplier.name}` })) }] : []),
        ]}
        value={experience}
        onChange={(v) => {
          setExperience(v);
          setDate(null);
          setSlotId(null);
          setExtras({});
        }}
        searchable
      />
      {partnerOffer ? (
        <PartnerSale key={partnerOffer} offerId={partnerOffer} />
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <Stack>
            {experience && !partnerOffer && (
              <SlotPicker
                slots={slots}
                month={month}
                onMonth={setMonth}
                date={date}
                onDate={(d) => {
                  setDate(d);
                  setSlotId(null);
                }}
                slotId={slotId}
                onSlot={setSlotId}
              />
            )}
          </Stack>
          <Stack>
            {slot && (
              <Card withBorder padding="lg" aria-label={tr('checkout.quantities')}>
                <Group justify="space-between" mb="sm">
                  <Text fw={600}>
                    {formatDatePattern(slot.local_date, 'DD. MMMM YYYY')}, {clock(slot.local_time)}
                  </Text>
                  <Badge color={STATUS_COLOR[slot.status]} variant="light" data-testid="remaining">
                    {tr('checkout.seatsLeft', { remaining: slot.remaining, capacity: slot.capacity })}
                  </Badge>
                </Group>
                <Stack gap="xs">
                  {categories?.results
                    .filter((c) => priceOf(c.id) !== undefined)
                    .map((c) => (
                      <Group key={c.id} justify="space-between">
                        <Text size="sm">
                          {c.label} · {formatMoney(priceOf(c.id)!, currency)}
                        </Text>
                        <NumberInput aria-label={tr('checkout.quantityOf', { name: c.label })} w={90} min={0} max={99} value={quantities[c.id] ?? 0} onChange={(v) => setQuantities({ ...quantities, [c.id]: Number(v) || 0 })} />
                      </Group>
                    ))}
                </Stack>
                {offeredExtras.length > 0 && (
                  <>
                    <Divider my="sm" label={tr('checkout.extras')} labelPosition="left" />
                    <Stack gap="xs" aria-label={tr('checkout.extras')}>
                      {offeredExtras.map((item) => (
                        <Group key={item.id} justify="space-between" wrap="nowrap">
                          <Text size="sm">
                            {item.name} · {formatMoney(item.price, item.currency)}
                          </Text>
                          <NumberInput aria-label={tr('checkout.quantityOf', { name: item.name })} w={90} min={0} max={100} value={extras[item.id] ?? 0} onChange={(v) => setExtras({ ...extras, [item.id]: Number(v) || 0 })} />
                        </Group>
                      ))}
                    </Stack>
                  </>
                )}
                <Group justify="space-between" mt="md">
                  <Text fw={600} data-testid="line-total">
                    {tr('checkout.total', { amount: formatMoney(total, currency) })}
                  </Text>
                  <Button
                    loading={holding.isLoading}
                    disabled={participants === 0}
                    onClick={async () => {
                      const res = await hold({ slot: slot.id, quantities: positiveCounts(quantities), extras: positiveCounts(extras) });
                      if (!('error' in res)) {
                        notifySuccess(tr('checkout.held'));
                        setQuantities({});
                        setExtras({});
                      }
                    }}
                  >
                    {tr('checkout.hold')}
                  </Button>
                </Group>
              </Card>
            )}
            <Card withBorder padding="lg" aria-label={tr('checkout.cart')}>
              <Group justify="space-between" mb="sm">
                <Text fw={600}>{tr('checkout.cart')}</Text>
                {cart?.expires_at && <Countdown until={cart.expires_at} />}
              </Group>
              {shown.length === 0 && <Text c="dimmed" size="sm">{tr('checkout.nothingHeld')}</Text>}
              {Object.keys(refused).length > 0 && (
                <Alert color="red" variant="light" mb="sm" title={tr('checkout.refusedTitle')} data-testid="refused-lines">
                  {tr('checkout.refusedHelp')}
                </Alert>
              )}
              <Stack gap="xs">
                {shown.map((l) => (
                  <Group key={l.id} justify="space-between" data-testid="cart-line" data-refused={refused[l.id] ? 'true' : undefined} wrap="nowrap">
                    <div style={{ minWidth: 0, flex: 1 }}>
                      <Text size="sm" td={refused[l.id] ? 'line-through' : undefined}>
                        {l.experience_title} · {formatDisplayDate(l.starts_at, zone)}, {formatTime(l.starts_at, zone)} · {tr('checkout.seats', { count: l.seats })}
                      </Text>
                      {l.items.map((i) => (
                        <Text key={`${i.kind}-${i.id}`} size="xs" c="dimmed" data-testid="cart-item">
                          {i.kind === 'extra' ? '+ ' : ''}
                          {i.label} × {i.quantity} · {formatMoney(i.unit_price, l.currency)}
                        </Text>
                      ))}
                      {refused[l.id] && (
                        <Text size="xs" c="red" role="alert">
                          {refused[l.id]}
                        </Text>
                      )}
                    </div>
                    <Group gap="xs" wrap="nowrap">
                      <Text size="sm">{formatMoney(l.total, l.currency)}</Text>
                      <Button size="xs" variant={refused[l.id] ? 'light' : 'subtle'} color="red" onClick={() => removeLine(l.id)}>
                        {refused[l.id] ? tr('checkout.remove') : tr('checkout.release')}
                      </Button>
                    </Group>
                  </Group>
                ))}
              </Stack>
              {cart && cart.lines.length > 0 && <CustomerStep cart={cart} catalog={catalog} onLineErrors={onLineErrors} />}
            </Card>
            {!experience && <Alert variant="light">{tr('checkout.start')}</Alert>}
          </Stack>
        </SimpleGrid>
      )}
    </Stack>
  );
}
