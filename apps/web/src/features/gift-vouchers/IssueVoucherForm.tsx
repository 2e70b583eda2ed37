import { Button, Checkbox, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { fieldErrors } from '../../shared/api/errors';
import { toMinorUnits } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useIssueGiftVoucherMutation } from './api';
import { useGiftVouchersT } from './texts';

/** Staff issue a voucher (compensation, a prize): its value, whom it is for, why; no payment. */
export function IssueVoucherForm({ currency, onClose }: { currency: string; onClose: (id?: string) => void }) {
  const t = useGiftVouchersT();
  const [issue, issuing] = useIssueGiftVoucherMutation();
  const [v, setV] = useState({ value: '', recipient_name: '', recipient_email: '', message: '', reason: '', send: false });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof typeof v>(k: K, value: (typeof v)[K]) => setV((old) => ({ ...old, [k]: value }));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const value = toMinorUnits(v.value, currency);
    if (value === null || value <= 0) return setErrors({ value: t('form.invalidAmount') });
    const res = await issue({ value, recipient_name: v.recipient_name, recipient_email: v.recipient_email, message: v.message, reason: v.reason, send: v.send });
    if ('error' in res) return setErrors(fieldErrors(res.error));
    notifySuccess(t('form.issued', { code: res.data.code }));
    onClose(res.data.id);
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('issue')}>
      <Stack>
        <TextInput label={`${t('form.value')} (${currency})`} withAsterisk data-autofocus inputMode="decimal" value={v.value} onChange={(e) => set('value', e.currentTarget.value)} error={errors.value} />
        <TextInput label={t('form.recipientName')} value={v.recipient_name} onChange={(e) => set('recipient_name', e.currentTarget.value)} error={errors.recipient_name} />
        <TextInput label={t('form.recipientEmail')} type="email" value={v.recipient_email} onChange={(e) => set('recipient_email', e.currentTarget.value)} error={errors.recipient_email} />
        <Textarea label={t('form.message')} value={v.message} onChange={(e) => set('message', e.currentTarget.value)} error={errors.message} autosize minRows={2} />
        <TextInput label={t('form.reason')} withAsterisk value={v.reason} onChange={(e) => set('reason', e.currentTarget.value)} error={errors.reason} />
        <Checkbox label={t('form.send')} checked={v.send} disabled={!v.recipient_email} onChange={(e) => set('send', e.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button type="submit" loading={issuing.isLoading}>
            {t('form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
