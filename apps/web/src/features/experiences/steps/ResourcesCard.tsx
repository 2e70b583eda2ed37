import { ActionIcon, Button, Card, Group, NumberInput, Select, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { POOL_USAGE_PER, type PoolUsagePer, type TExperience, type TPoolUsage } from '@tourdesk/contracts';
import { useState } from 'react';
import { notifyError, notifySuccess } from '../../../shared/lib/toast';
import { useInventoryOfTypeQuery, usePoolUsageQuery, usePricingCategoriesQuery, useSavePoolUsageMutation } from '../api';
import { useOfferSettingsT } from '../settings-texts';

interface Rule {
  pool: string | null;
  per: PoolUsagePer;
  pricing_category: string | null;
  extra: string | null;
  units: number;
}

/**
 * The offer's resources (issue 34): what each booking takes from which shared pool — per seat of a
 * pricing category, per booking, or per extra sold. A pool is an Equipment item with a stock
 * (Inventory); the server refuses a usage that would put a departure to come over a pool.
 */
export function ResourcesCard({ experience }: { experience: TExperience }) {
  const { data: usage } = usePoolUsageQuery(experience.id);
  // The editor starts from the saved rules, again after each save (its key).
  return usage ? <ResourcesEditor key={JSON.stringify(usage.rules)} experience={experience} usage={usage} /> : null;
}

function ResourcesEditor({ experience, usage }: { experience: TExperience; usage: TPoolUsage }) {
  const t = useOfferSettingsT();
  const { data: equipment } = useInventoryOfTypeQuery('Equipment');
  const { data: extras } = useInventoryOfTypeQuery('Extras');
  const { data: categories } = usePricingCategoriesQuery();
  const [save, { isLoading }] = useSavePoolUsageMutation();
  const [rules, setRules] = useState<Rule[]>(() => usage.rules.map((r) => ({ pool: r.pool.id, per: r.per, pricing_category: r.pricing_category, extra: r.extra, units: r.units })));
  const pools = (equipment?.results ?? []).filter((i) => i.stock !== null).map((i) => ({ value: i.id, label: t('resources.poolOption', { name: i.name, stock: i.stock ?? 0 }) }));
  const change = (i: number, patch: Partial<Rule>) => setRules((list) => list.map((r, k) => (k === i ? { ...r, ...patch } : r)));
  const submit = async () => {
    if (rules.some((r) => !r.pool)) return notifyError(t('resources.choosePool'));
    const res = await save({
      experience: experience.id,
      rules: rules.map((r) => ({ pool: r.pool!, per: r.per, units: r.units, pricing_category: r.per === 'seat' ? r.pricing_category : null, extra: r.per === 'extra' ? r.extra : null })),
    });
    if (!('error' in res)) notifySuccess(t('resources.saved'));
  };
  return (
    <Card withBorder padding="lg" data-testid="offer-resources">
      <Title order={4} mb={4}>
        {t('resources.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('resources.hint')}
      </Text>
      {pools.length === 0 && (
        <Text size="sm" c="dimmed" mb="sm">
          {t('resources.noPools')}
        </Text>
      )}
      <Stack gap="sm">
        {rules.map((r, i) => (
          <Group key={i} align="flex-end" wrap="wrap" data-testid="resource-rule">
            <Select label={t('resources.pool')} data={pools} value={r.pool} onChange={(v) => change(i, { pool: v })} w={{ base: '100%', sm: 220 }} allowDeselect={false} />
            <NumberInput label={t('resources.units')} min={1} max={1000} allowDecimal={false} value={r.units} onChange={(v) => change(i, { units: Math.max(1, Number(v) || 1) })} w={100} />
            <Select
              label={t('resources.per')}
              data={POOL_USAGE_PER.map((p) => ({ value: p, label: t(`resources.per.${p}`) }))}
              value={r.per}
              onChange={(v) => v && change(i, { per: v as PoolUsagePer })}
              w={{ base: '100%', sm: 160 }}
              allowDeselect={false}
            />
            {r.per === 'seat' && (
              <Select
                label={t('resources.category')}
                data={(categories?.results ?? []).map((c) => ({ value: c.id, label: c.label }))}
                value={r.pricing_category}
                onChange={(v) => change(i, { pricing_category: v })}
                w={{ base: '100%', sm: 180 }}
              />
            )}
            {r.per === 'extra' && (
              <Select label={t('resources.extra')} data={(extras?.results ?? []).map((x) => ({ value: x.id, label: x.name }))} value={r.extra} onChange={(v) => change(i, { extra: v })} w={{ base: '100%', sm: 180 }} />
            )}
            <ActionIcon variant="subtle" color="red" size="lg" aria-label={t('resources.remove')} onClick={() => setRules((list) => list.filter((_, k) => k !== i))}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group justify="space-between">
          <Button
            variant="default"
            leftSection={<IconPlus size={16} />}
            disabled={pools.length === 0}
            onClick={() => setRules((list) => [...list, { pool: pools[0]?.value ?? null, per: 'seat', pricing_category: categories?.results[0]?.id ?? null, extra: null, units: 1 }])}
          >
            {t('resources.add')}
          </Button>
          <Button onClick={submit} loading={isLoading}>
            {t('resources.save')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
