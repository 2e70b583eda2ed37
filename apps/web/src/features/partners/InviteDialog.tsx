import { Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { TPartnerType } from '@tourdesk/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { notifySuccess } from '../../shared/lib/toast';
import { useInvitePartnerMutation } from './api';
import { ContractFields, contractBody, EMPTY_CONTRACT, partnerPath } from './parts';
import { usePartnersT } from './texts';

/**
 * "Invite partner": an organisation on Tourdesk by its subdomain (it answers in its own partners
 * list), or anyone by e-mail (a link). The contract's terms go with it; the supplier chooses the
 * shared offers on the partner's page.
 */
export function InviteDialog({ partnerType, onClose }: { partnerType: TPartnerType; onClose: () => void }) {
  const t = usePartnersT();
  const [type, setType] = useState<TPartnerType>(partnerType);
  const [by, setBy] = useState<'subdomain' | 'email'>('subdomain');
  const [target, setTarget] = useState('');
  const [contract, setContract] = useState(EMPTY_CONTRACT);
  const [invite, { isLoading }] = useInvitePartnerMutation();
  const navigate = useNavigate();

  const submit = async () => {
    const res = await invite({ partner_type: type, ...(by === 'subdomain' ? { subdomain: target.trim() } : { email: target.trim() }), ...contractBody(contract) });
    if ('data' in res && res.data) {
      notifySuccess(t('invitationSent', { target: target.trim() }));
      onClose();
      navigate(partnerPath(res.data.id));
    }
  };

  return (
    <Stack gap="sm">
      <div>
        <Text size="sm" fw={500} mb={4}>
          {t('partnerWillBe')}
        </Text>
        <SegmentedControl
          fullWidth
          value={type}
          onChange={(v) => setType(v as TPartnerType)}
          data={[
            { value: 'Resellers', label: t('asReseller') },
            { value: 'Suppliers', label: t('asSupplier') },
          ]}
        />
      </div>
      <SegmentedControl
        value={by}
        onChange={(v) => setBy(v as 'subdomain' | 'email')}
        data={[
          { value: 'subdomain', label: t('bySubdomain') },
          { value: 'email', label: t('byEmail') },
        ]}
      />
      <TextInput
        label={by === 'subdomain' ? t('subdomain') : t('emailAddress')}
        description={by === 'subdomain' ? t('subdomainHint') : t('emailHint')}
        placeholder={by === 'subdomain' ? 'alpine-agency' : 'desk@agency.example'}
        type={by === 'email' ? 'email' : 'text'}
        value={target}
        onChange={(e) => setTarget(e.currentTarget.value)}
        data-autofocus
        required
      />
      <ContractFields value={contract} onChange={setContract} />
      {type === 'Resellers' && (
        <Text size="xs" c="dimmed">
          {t('offersNote')}
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('cancel')}
        </Button>
        <Button onClick={submit} loading={isLoading} disabled={!target.trim()}>
          {t('sendInvitation')}
        </Button>
      </Group>
    </Stack>
  );
}
