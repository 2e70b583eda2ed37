import { Group, Image, Text } from '@mantine/core';
import { IconVideo } from '@tabler/icons-react';
import type { TVideo } from '@tourdesk/contracts';
import type { ReactNode } from 'react';

/** What the row shows of a video (an offer's or a help video). */
type Video = Pick<TVideo, 'url' | 'provider' | 'title' | 'thumbnail_url' | 'notice'>;

/**
 * A video as a row: its thumbnail (or an icon when the platform gave none), its title (or its
 * address), where it is hosted, why a title or thumbnail is missing, and the caller's actions.
 */
export function VideoItem({ video, title, actions }: { video: Video; title?: ReactNode; actions?: ReactNode }) {
  return (
    <Group wrap="nowrap" justify="space-between" align="flex-start" data-testid="video-item">
      <Group wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
        {video.thumbnail_url ? (
          <Image src={video.thumbnail_url} w={96} h={54} radius="sm" alt="" style={{ flexShrink: 0 }} />
        ) : (
          <Group w={96} h={54} justify="center" bg="var(--mantine-color-default-hover)" style={{ borderRadius: 'var(--mantine-radius-sm)', flexShrink: 0 }}>
            <IconVideo size={24} aria-hidden />
          </Group>
        )}
        <div style={{ minWidth: 0 }}>
          {title ?? (
            <Text size="sm" fw={500}>
              {video.title || video.url}
            </Text>
          )}
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {video.provider ?? 'video'} · {video.url}
          </Text>
          {video.notice && (
            <Text size="xs" c="orange.8">
              {video.notice}
            </Text>
          )}
        </div>
      </Group>
      {actions}
    </Group>
  );
}
