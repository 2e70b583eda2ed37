import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useTagsQuery } from './api';
import { InventoryTabs } from './InventoryTabs';

export default function TagsPage() {
  const { data } = useTagsQuery();
  const navigate = useNavigate();
  return (
    <Stack gap="md">
      <Title order={2}>Inventory</Title>
      <InventoryTabs />
      {data?.length === 0 && <Text c="dimmed">No tags yet: add them to items.</Text>}
      <Group gap="sm" aria-label="Tags">
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
