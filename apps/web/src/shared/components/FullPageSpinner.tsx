import { Center, Loader } from '@mantine/core';

/** Shown while the app (or a route's code) loads. */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <Center h="60vh" role="status" aria-label={label}>
      <Loader size="lg" />
    </Center>
  );
}
