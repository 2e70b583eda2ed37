import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useTagsQuery } from './api';
import { InventoryTabs } from './InventoryTabs';
import { useInventoryT } from './texts';

export default function TagsPage() {
  const tx = useInventoryT();
  const { data } = useTagsQuery();
  const navigate = useNavigate();
  return (
    <Stack gap="md">
      <Title order={2}>{tx('title')}</Title>
      <InventoryTabs />
      {data?.length === 0 && <Text c="dimmed">{tx('noTags')}</Text>}
      <Group gap="sm" aria-label={tx('tags')}>
        {data?.map((t) => (
          <Badge
            key={t.tag}
            size="lg"
            variant="light"
            style={{ cursor: 'pointer' }}
            onClick={() => navigate(`/products/experiences/inventory/overview?tag=${encodeURIComponent(t.tag)}`)}
          >
            #{t.tag} · {t.item_count}
          </Badge>
        ))}
      </Group>
    </Stack>
  );
}
