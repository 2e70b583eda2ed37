import { Button, Checkbox, Divider, Group, NumberInput, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import type { TCart, TPromoPreview, TVoucherPreview } from '@tourdesk/contracts';
import { errorItems } from '../../shared/api/errors';
import { isLanguage, LANGUAGE_NAMES, type Language } from '@tourdesk/contracts/i18n';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type Control, type UseFormReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useAppSelector } from '../../shared/hooks/store';
import { applyFieldErrors } from '../../shared/lib/forms';
import { keyFor, unanswered, type Submission } from '../../shared/lib/idempotency';
import { formatMoney, vatRate } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { formatDisplayDate } from '../../shared/lib/dates';
import { useBookingOffersQuery, useCheckoutMutation, useTryCounterPromoMutation, useTryCounterVoucherMutation } from './api';
import { lineErrors, validateAnswer } from './booking-logic';
import type { BookingCatalog, BookingQuestion } from './use-booking-catalog';
import { useBookingsT } from './texts';

export interface CheckoutForm {
  customer: { email: string; first_name: string; last_name: string; phone: string };
  /** Answers by question id; what is sent is trimmed, and blank answers are left out. */
  answers: Record<string, string>;
  /** E-mail the customer the confirmation and tickets once booked: ticked unless staff untick it. */
  send_confirmation: boolean;
}

/** A counter sale's first values: nobody yet, and the confirmation e-mailed (as the market's counters do). */
export const NEW_SALE: CheckoutForm = { customer: { email: '', first_name: '', last_name: '', phone: '' }, answers: {}, send_confirmation: true };

/** "E-mail the confirmation and tickets to the customer", under the customer's details. */
export function SendConfirmationField({ control }: { control: Control<CheckoutForm> }) {
  const tr = useBookingsT();
  return (
    <Controller
      control={control}
      name="send_confirmation"
      render={({ field }) => <Checkbox label={tr('customer.sendConfirmation')} description={tr('customer.sendConfirmationHelp')} checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />}
    />
  );
}

export const CUSTOMER_FIELDS = ['customer.email', 'customer.first_name', 'customer.last_name', 'customer.phone'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One booking question, with the input its kind of answer needs. */
export function QuestionField({ question: q, control }: { question: BookingQuestion; control: Control<CheckoutForm> }) {
  const tr = useBookingsT();
  return (
    <Controller
      control={control}
      name={`answers.${q.id}`}
      defaultValue=""
      rules={{ validate: (value) => validateAnswer(q, value) }}
      render={({ field, fieldState }) => {
        const common = {
          label: q.question,
          withAsterisk: q.required,
          error: fieldState.error?.message,
          description: q.per_participant ? tr('customer.perParticipant') : undefined,
        };
        switch (q.answer_type) {
          case 'yes_no':
            return (
              <Radio.Group {...common} value={field.value ?? ''} onChange={field.onChange} name={field.name}>
                <Group gap="lg" mt={6}>
                  <Radio value="yes" label={tr('customer.yes')} ref={field.ref} onBlur={field.onBlur} />
                  <Radio value="no" label={tr('customer.no')} onBlur={field.onBlur} />
                </Group>
              </Radio.Group>
            );
          case 'number':
            return (
              <NumberInput
                {...common}
                ref={field.ref}
                name={field.name}
                value={field.value ?? ''}
                onChange={(v) => field.onChange(v === '' ? '' : String(v))}
                onBlur={field.onBlur}
                hideControls
              />
            );
          case 'choice':
            return (
              <Select
                {...common}
                ref={field.ref}
                data={q.choices}
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? '')}
                onBlur={field.onBlur}
                clearable={!q.required}
                placeholder={tr('customer.chooseAnswer')}
              />
            );
          default:
            return <TextInput {...common} {...field} value={field.value ?? ''} />;
        }
      }}
    />
  );
}

/** Who books: e-mail and first name required, checked here before the server checks them again. */
export function CustomerFields({ form }: { form: UseFormReturn<CheckoutForm> }) {
  const tr = useBookingsT();
  const { errors } = form.formState;
  return (
    <>
      <Group grow align="flex-start">
        <TextInput
          label={tr('customer.email')}
          type="email"
          withAsterisk
          {...form.register('customer.email', { validate: (v) => EMAIL.test(v.trim()) || tr('customer.emailInvalid') })}
          error={errors.customer?.email?.message}
        />
        <TextInput label={tr('customer.phone')} {...form.register('customer.phone')} error={errors.customer?.phone?.message} />
      </Group>
      <Group grow align="flex-start">
        <TextInput
          label={tr('customer.firstName')}
          withAsterisk
          {...form.register('customer.first_name', { validate: (v) => v.trim() !== '' || tr('customer.firstNameMissing') })}
          error={errors.customer?.first_name?.message}
        />
        <TextInput label={tr('customer.lastName')} {...form.register('customer.last_name')} error={errors.customer?.last_name?.message} />
      </Group>
    </>
  );
}

/**
 * The customer step of the checkout: who books, and the booking questions of every offer in
 * the cart (each asked once). Required answers and the kind of each answer are checked here
 * before the server checks them again; its field errors land on the matching field.
 */
/**
 * A promo code at the counter: tried on the cart's lines (the checkout's own rule, nothing taken),
 * then shown as its own "Discount (CODE)" row with its VAT per rate; a refusal says why.
 */
function PromoCodeField({ cart, email, applied, onApplied, refusal }: { cart: TCart; email: string; applied: TPromoPreview | null; onApplied: (p: TPromoPreview | null) => void; refusal?: string }) {
  const tr = useBookingsT();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [tryPromo, trying] = useTryCounterPromoMutation();
  const apply = async () => {
    const res = await tryPromo({ code, lines: cart.lines.map((l) => l.id), ...(EMAIL.test(email) ? { email } : {}) });
    if ('error' in res) {
      setError(errorItems(res.error)[0]?.detail);
      return onApplied(null);
    }
    setError(undefined);
    onApplied(res.data);
  };
  if (applied) {
    return (
      <Stack gap={2} data-testid="promo-applied">
        <Group justify="space-between">
          <Text size="sm">{tr('promo.discount', { code: applied.discount.code })}</Text>
          <Group gap="xs">
            <Text size="sm">−{formatMoney(applied.discount.amount, applied.currency)}</Text>
            <Button size="xs" variant="subtle" color="red" onClick={() => onApplied(null)}>
              {tr('promo.remove')}
            </Button>
          </Group>
        </Group>
        {applied.discount.taxes.map((x) => (
          <Text key={x.vat_rate_bp} size="xs" c="dimmed">
            {tr('promo.vat', { rate: vatRate(x.vat_rate_bp), tax: formatMoney(x.tax, applied.currency) })}
          </Text>
        ))}
        {refusal && (
          <Text size="xs" c="red" role="alert">
            {refusal}
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <Group align="flex-end" gap="xs">
      <TextInput label={tr('promo.label')} value={code} onChange={(e) => setCode(e.currentTarget.value)} error={error ?? refusal} style={{ flex: 1 }} />
      <Button variant="default" onClick={() => void apply()} loading={trying.isLoading} disabled={!code.trim()}>
        {tr('promo.apply')}
      </Button>
    </Group>
  );
}

/**
 * A gift voucher at the counter: tried on the cart (after the promo code), its balance and what it
 * pays shown; the checkout spends it as a payment (the rest is due), or refuses with why.
 */
function VoucherField({ cart, promo, applied, onApplied, refusal }: { cart: TCart; promo: string | undefined; applied: TVoucherPreview | null; onApplied: (p: TVoucherPreview | null) => void; refusal?: string }) {
  const tr = useBookingsT();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [tryVoucher, trying] = useTryCounterVoucherMutation();
  const apply = async () => {
    const res = await tryVoucher({ code, lines: cart.lines.map((l) => l.id), ...(promo ? { promo_code: promo } : {}) });
    if ('error' in res) {
      setError(errorItems(res.error)[0]?.detail);
      return onApplied(null);
    }
    setError(undefined);
    onApplied(res.data);
  };
  if (applied) {
    return (
      <Stack gap={2} data-testid="voucher-applied">
        <Group justify="space-between">
          <Text size="sm">{tr('voucher.pays', { code: applied.code })}</Text>
          <Group gap="xs">
            <Text size="sm">−{formatMoney(applied.covers, applied.currency)}</Text>
            <Button size="xs" variant="subtle" color="red" onClick={() => onApplied(null)}>
              {tr('voucher.remove')}
            </Button>
          </Group>
        </Group>
        <Text size="xs" c="dimmed">
          {tr('voucher.balance', { balance: formatMoney(applied.balance, applied.currency), date: formatDisplayDate(new Date(new Date(applied.expires_at).getTime() - 1000).toISOString()) })}
        </Text>
        {refusal && (
          <Text size="xs" c="red" role="alert">
            {refusal}
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <Group align="flex-end" gap="xs">
      <TextInput label={tr('voucher.label')} value={code} onChange={(e) => setCode(e.currentTarget.value)} error={error ?? refusal} style={{ flex: 1 }} />
      <Button variant="default" onClick={() => void apply()} loading={trying.isLoading} disabled={!code.trim()}>
        {tr('voucher.apply')}
      </Button>
    </Group>
  );
}

export function CustomerStep({ cart, catalog, onLineErrors }: { cart: TCart; catalog: BookingCatalog; onLineErrors: (byLine: Record<string, string>) => void }) {
  const tr = useBookingsT();
  const navigate = useNavigate();
  const experienceIds = useMemo(() => [...new Set(cart.lines.map((l) => l.experience))].sort(), [cart.lines]);
  const { data: offers, isFetching: offersLoading } = useBookingOffersQuery(experienceIds, { skip: !catalog.canReadCatalog || experienceIds.length === 0 });
  const asked = useMemo(() => {
    const seen = new Set<string>();
    const out: BookingQuestion[] = [];
    for (const offer of offers ?? []) {
      for (const id of offer.booking_questions) {
        const q = catalog.questions.get(id);
        if (q && !seen.has(id)) {
          seen.add(id);
          out.push(q);
        }
      }
    }
    return out;
  }, [offers, catalog.questions]);
  const form = useForm<CheckoutForm>({ defaultValues: NEW_SALE });
  const [checkout, { isLoading }] = useCheckoutMutation();
  // The customer's language among the organisation's, its main one (the first) unless chosen.
  const languages = useAppSelector((s) => s.auth.user?.base_account?.languages) ?? [];
  const [chosenLanguage, setLanguage] = useState<Language | null>(null);
  const language: Language | undefined = chosenLanguage ?? languages[0];
  // The Idempotency-Key of the last submission, kept for a retry of the very same body.
  const [pending, setPending] = useState<Submission | null>(null);
  const [promo, setPromo] = useState<TPromoPreview | null>(null);
  const email = useWatch({ control: form.control, name: 'customer.email' });
  const [promoRefusal, setPromoRefusal] = useState<string>();
  const [voucher, setVoucher] = useState<TVoucherPreview | null>(null);
  const [voucherRefusal, setVoucherRefusal] = useState<string>();

  const onSubmit = form.handleSubmit(async (values) => {
    const answers: Record<string, string> = {};
    for (const q of asked) {
      const answer = (values.answers[q.id] ?? '').trim();
      if (answer) answers[q.id] = answer;
    }
    // Exactly the lines on screen are booked; a line whose hold ran out comes back named (lines.<id>).
    const input = { customer: values.customer, answers, lines: cart.lines.map((l) => l.id), send_confirmation: values.send_confirmation, ...(language ? { language } : {}), ...(promo ? { promo_code: promo.discount.code } : {}), ...(voucher ? { voucher_code: voucher.code } : {}) };
    const submission = keyFor(pending, JSON.stringify(input));
    setPending(submission);
    const res = await checkout({ ...input, idempotencyKey: submission.key });
    if ('error' in res) {
      if (!unanswered(res.error)) setPending(null);
      onLineErrors(lineErrors(res.error));
      setPromoRefusal(errorItems(res.error).find((i) => i.attr === 'promo_code')?.detail);
      setVoucherRefusal(errorItems(res.error).find((i) => i.attr === 'voucher_code' || i.attr === 'voucher_amount')?.detail);
      return applyFieldErrors(res.error, form.setError, [...CUSTOMER_FIELDS, ...asked.map((q) => `answers.${q.id}`)]);
    }
    setPending(null);
    notifySuccess(tr('customer.created'));
    navigate(`/orders/editor/${res.data.id}/details`);
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={tr('customer.label')}>
      <Stack mt="md">
        <CustomerFields form={form} />
        <SendConfirmationField control={form.control} />
        {languages.length > 1 && (
          <Select
            label={tr('customer.language')}
            description={tr('customer.languageHelp')}
            data={languages.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
            value={language ?? null}
            onChange={(v) => isLanguage(v) && setLanguage(v)}
            allowDeselect={false}
          />
        )}
        {asked.length > 0 && (
          <>
            <Divider label={tr('customer.questions')} labelPosition="left" />
            <Stack gap="sm" aria-label={tr('customer.questions')}>
              {asked.map((q) => (
                <QuestionField key={q.id} question={q} control={form.control} />
              ))}
            </Stack>
          </>
        )}
        {!catalog.canReadCatalog && (
          <Text size="xs" c="dimmed">
            {tr('customer.questionsHidden')}
          </Text>
        )}
        <PromoCodeField
          cart={cart}
          email={email}
          applied={promo}
          refusal={promoRefusal}
          onApplied={(p) => {
            setPromo(p);
            setPromoRefusal(undefined);
            // What the voucher pays depends on the total: tried again after a promo code changes.
            setVoucher(null);
          }}
        />
        <VoucherField
          cart={cart}
          promo={promo?.discount.code}
          applied={voucher}
          refusal={voucherRefusal}
          onApplied={(v) => {
            setVoucher(v);
            setVoucherRefusal(undefined);
          }}
        />
        <Group justify="space-between">
          <Text fw={700} data-testid="cart-total">
            {tr('checkout.total', { amount: formatMoney(promo ? cart.total - promo.discount.amount : cart.total, cart.currency) })}
            {voucher && (
              <Text span size="sm" fw={400} c="dimmed" data-testid="cart-due">
                {' · '}
                {tr('checkout.due', { amount: formatMoney((promo ? cart.total - promo.discount.amount : cart.total) - voucher.covers, cart.currency) })}
              </Text>
            )}
          </Text>
          <Button type="submit" loading={isLoading} disabled={offersLoading || catalog.isLoading}>
            {tr('customer.checkOut')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
