import { Text, ThemeIcon } from '@mantine/core';
import { IconMountain } from '@tabler/icons-react';

/** The product's mark and name, in the header of every page. */
export function Brand() {
  return (
    <>
      <ThemeIcon size="lg" radius="md" variant="filled" aria-hidden>
        <IconMountain size={20} />
      </ThemeIcon>
      <Text fw={700} size="lg">
        Tourdesk
      </Text>
    </>
  );
}
