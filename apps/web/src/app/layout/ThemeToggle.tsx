import { ActionIcon, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useShellT } from './texts';
import { IconMoon, IconSun } from '@tabler/icons-react';

/** Light/dark switch. The choice persists (see `colorSchemeManager`); before one is made, the system decides. */
export function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const next = computed === 'dark' ? 'light' : 'dark';
  const t = useShellT();
  const label = t(next === 'dark' ? 'theme.toDark' : 'theme.toLight');
  return (
    <Tooltip label={label}>
      <ActionIcon variant="default" size="lg" aria-label={label} data-theme={computed} onClick={() => setColorScheme(next)}>
        {computed === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}
