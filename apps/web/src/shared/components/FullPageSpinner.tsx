import { Center, Loader } from '@mantine/core';
import { useCommonT } from '../i18n/common';

/** Shown while the app (or a route's code) loads. */
export function FullPageSpinner({ label }: { label?: string }) {
  const t = useCommonT();
  return (
    <Center h="60vh" role="status" aria-label={label ?? t('loading')}>
      <Loader size="lg" />
    </Center>
  );
}
