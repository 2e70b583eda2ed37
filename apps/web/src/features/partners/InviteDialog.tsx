import { Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { TPartnerType } from '@tourdesk/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { notifySuccess } from '../../shared/lib/toast';
import { useInvitePartnerMutation } from './api';
import { ContractFields, contractBody, EMPTY_CONTRACT, partnerPath } from './parts';

/**
 * "Invite partner": an organisation on Tourdesk by its subdomain (it answers in its own partners
 * list), or anyone by e-mail (a link). The contract's terms go with it; the supplier chooses the
 * shared offers on the partner's page.
 */
export function InviteDialog({ partnerType, onClose }: { partnerType: TPartnerType; onClose: () => void }) {
  const [type, setType] = useState<TPartnerType>(partnerType);
  const [by, setBy] = useState<'subdomain' | 'email'>('subdomain');
  const [target, setTarget] = useState('');
  const [contract, setContract] = useState(EMPTY_CONTRACT);
  const [invite, { isLoading }] = useInvitePartnerMutation();
  const navigate = useNavigate();

  const submit = async () => {
    const res = await invite({ partner_type: type, ...(by === 'subdomain' ? { subdomain: target.trim() } : { email: target.trim() }), ...contractBody(contract) });
    if ('data' in res && res.data) {
      notifySuccess(`Invitation sent to ${target.trim()}.`);
      onClose();
      navigate(partnerPath(res.data.id));
    }
  };

  return (
    <Stack gap="sm">
      <div>
        <Text size="sm" fw={500} mb={4}>
          The partner will be
        </Text>
        <SegmentedControl
          fullWidth
          value={type}
          onChange={(v) => setType(v as TPartnerType)}
          data={[
            { value: 'Resellers', label: 'A reseller of my offers' },
            { value: 'Suppliers', label: 'A supplier I resell' },
          ]}
        />
      </div>
      <SegmentedControl
        value={by}
        onChange={(v) => setBy(v as 'subdomain' | 'email')}
        data={[
          { value: 'subdomain', label: 'By subdomain' },
          { value: 'email', label: 'By e-mail' },
        ]}
      />
      <TextInput
        label={by === 'subdomain' ? 'Subdomain' : 'E-mail address'}
        description={by === 'subdomain' ? 'The organisation’s address on Tourdesk, e.g. alpine-agency' : 'We send a link to accept or decline'}
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
          Choose the offers the contract shares, and their net rates, on the partner’s page.
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} loading={isLoading} disabled={!target.trim()}>
          Send invitation
        </Button>
      </Group>
    </Stack>
  );
}
