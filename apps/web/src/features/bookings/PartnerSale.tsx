import { Alert, Anchor, Badge, Button, Card, Divider, Group, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { formatBp, RESALE_COMPLETED, type TResaleDetail } from '@tourdesk/contracts';
import { currentLocale } from '../../shared/i18n/language';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { applyFieldErrors } from '../../shared/lib/forms';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useCounterOfferQuery, useCounterSlotsQuery, useSellAtCounterMutation } from './api';
import { estimateTotal, positiveCounts } from './booking-logic';
import { CUSTOMER_FIELDS, CustomerFields, NEW_SALE, QuestionField, SendConfirmationField, type CheckoutForm } from './CustomerStep';
import { SlotPicker, STATUS_COLOR } from './SlotPicker';
import { clock, formatDatePattern } from '../../shared/lib/dates';
import { useBookingsT } from './texts';

interface SaleForm extends CheckoutForm {
  reference: string;
}

/**
 * Selling a partner's offer at a reseller's counter: its departures from the supplier's seats,
 * the quantities, extras, customer and answers, booked at once in the supplier's books. The order
 * is the supplier's, so the reseller gets the resale ("Resale completed!"), not an order to open.
 */
export function PartnerSale({ offerId }: { offerId: string }) {
  const t = useBookingsT();
  const { data: offer } = useCounterOfferQuery(offerId);
  const [month, setMonth] = useState(dayjs().format('YYYY-MM'));
  const [date, setDate] = useState<string | null>(null);
  const [slotId, setSlotId] = useState<string | null>(null);
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  const [extras, setExtras] = useState<Record<string, number>>({});
  const [sold, setSold] = useState<TResaleDetail | null>(null);
  const from = `${month}-01`;
  const to = dayjs(from).endOf('month').format('YYYY-MM-DD');
  const { data: slots } = useCounterSlotsQuery({ experience: offerId, from, to });
  const [sell, selling] = useSellAtCounterMutation();
  const form = useForm<SaleForm>({ defaultValues: { ...NEW_SALE, reference: '' } });
  const slot = slots?.find((s) => s.id === slotId);
  const priceOf = (category: string) => slot?.prices.find((p) => p.pricing_category === category)?.retail_price;
  const extraPrice = (id: string) => offer?.extras.find((x) => x.id === id)?.price;
  const total = estimateTotal(quantities, priceOf, extras, extraPrice);
  const participants = Object.values(quantities).reduce((sum, n) => sum + Math.max(0, n), 0);
  if (!offer) return null;
  const money = (n: number) => formatMoney(n, offer.currency);
  const supplier = offer.supplier.name;
  const terms = offer.pricing === 'commission' ? t('partner.commission', { rate: formatBp(offer.commission_bp, currentLocale()) }) : t('partner.netRates');

  const onSubmit = form.handleSubmit(async (values) => {
    if (!slot) return;
    const answers: Record<string, string> = {};
    for (const q of offer.questions) {
      const answer = (values.answers[q.id] ?? '').trim();
      if (answer) answers[q.id] = answer;
    }
    const res = await sell({
      experience: offer.id,
      slot: slot.id,
      quantities: positiveCounts(quantities),
      extras: positiveCounts(extras),
      customer: values.customer,
      answers,
      reference: values.reference.trim() || null,
      send_confirmation: values.send_confirmation,
    });
    if ('error' in res) return applyFieldErrors(res.error, form.setError, [...CUSTOMER_FIELDS, 'reference', ...offer.questions.map((q) => `answers.${q.id}`)]);
    notifySuccess(RESALE_COMPLETED);
    setSold(res.data);
    setQuantities({});
    setExtras({});
    setSlotId(null);
    form.reset();
  });

  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <Stack>
        <Alert variant="light" title={t('partner.operatedBy', { supplier })}>
          {t('partner.terms', { supplier, terms })}
          {offer.valid_to ? ` ${t('partner.validTo', { date: formatDatePattern(offer.valid_to, 'DD. MMMM YYYY') })}` : ''}
        </Alert>
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
      </Stack>
      <Stack>
        {sold && (
          <Alert color="green" variant="light" title={t('partner.completed')} data-testid="resale-completed">
            {t('partner.sold', { customer: sold.customer.name, supplier: sold.supplier.name, reference: sold.reference, gross: money(sold.gross), commission: money(sold.commission) })}{' '}
            <Anchor component={Link} to={`/resales/overview/${sold.id}`} inherit>
              {t('partner.open')}
            </Anchor>
          </Alert>
        )}
        {slot && (
          <Card withBorder padding="lg" aria-label={t('partner.label')}>
            <form onSubmit={onSubmit} noValidate>
              <Stack>
                <Group justify="space-between">
                  <Text fw={600}>
                    {formatDatePattern(slot.local_date, 'DD. MMMM YYYY')}, {clock(slot.local_time)}
                  </Text>
                  <Badge color={STATUS_COLOR[slot.status]} variant="light" data-testid="remaining">
                    {t('checkout.seatsLeft', { remaining: slot.remaining, capacity: slot.capacity })}
                  </Badge>
                </Group>
                <Stack gap="xs">
                  {offer.categories
                    .filter((c) => priceOf(c.id) !== undefined)
                    .map((c) => (
                      <Group key={c.id} justify="space-between">
                        <Text size="sm">
                          {c.label} · {money(priceOf(c.id)!)}
                        </Text>
                        <NumberInput aria-label={t('checkout.quantityOf', { name: c.label })} w={90} min={0} max={99} value={quantities[c.id] ?? 0} onChange={(v) => setQuantities({ ...quantities, [c.id]: Number(v) || 0 })} />
                      </Group>
                    ))}
                </Stack>
                {offer.extras.length > 0 && (
                  <>
                    <Divider label={t('checkout.extras')} labelPosition="left" />
                    {offer.extras.map((x) => (
                      <Group key={x.id} justify="space-between" wrap="nowrap">
                        <Text size="sm">
                          {x.name} · {money(x.price)}
                        </Text>
                        <NumberInput aria-label={t('checkout.quantityOf', { name: x.name })} w={90} min={0} max={100} value={extras[x.id] ?? 0} onChange={(v) => setExtras({ ...extras, [x.id]: Number(v) || 0 })} />
                      </Group>
                    ))}
                  </>
                )}
                <Divider label={t('customer.label')} labelPosition="left" />
                <CustomerFields form={form as never} />
                <SendConfirmationField control={form.control as never} />
                <TextInput label={t('partner.reference')} description={t('partner.referenceHint')} {...form.register('reference')} error={form.formState.errors.reference?.message} />
                {offer.questions.length > 0 && (
                  <Stack gap="sm" aria-label={t('customer.questions')}>
                    {offer.questions.map((q) => (
                      <QuestionField key={q.id} question={q} control={form.control as never} />
                    ))}
                  </Stack>
                )}
                <Group justify="space-between">
                  <Text fw={700} data-testid="line-total">
                    {t('checkout.total', { amount: money(total) })}
                  </Text>
                  <Button type="submit" loading={selling.isLoading} disabled={participants === 0}>
                    {t('partner.book', { supplier })}
                  </Button>
                </Group>
              </Stack>
            </form>
          </Card>
        )}
        {!slot && !sold && <Alert variant="light">{t('partner.chooseSlot')}</Alert>}
      </Stack>
    </SimpleGrid>
  );
}
