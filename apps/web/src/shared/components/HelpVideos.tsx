import { ActionIcon, Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconExternalLink, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import type { HelpTopic, THelpVideo, TPaginated } from '@tourdesk/contracts';
import { httpUrl } from '@tourdesk/contracts/http-url';
import { useState } from 'react';
import { api } from '../api/api';
import { useCan } from '../hooks/use-can';
import { notifyError, notifySuccess } from '../lib/toast';
import { VideoItem } from './VideoItem';
import { errorMessages } from '../api/errors';
import { useCommonT } from '../i18n/common';

const helpVideosApi = api.injectEndpoints({
  endpoints: (build) => ({
    helpVideos: build.query<TPaginated<THelpVideo>, HelpTopic>({
      query: (topic) => ({ url: 'help-videos/', params: { topic, page_size: 50 } }),
      providesTags: ['HelpVideo'],
    }),
    addHelpVideo: build.mutation<THelpVideo, { url: string; topic: HelpTopic }>({
      query: (body) => ({ url: 'help-videos/', method: 'POST', body }),
      invalidatesTags: ['HelpVideo'],
    }),
    removeHelpVideo: build.mutation<void, string>({
      query: (id) => ({ url: `help-videos/${id}/`, method: 'DELETE' }),
      invalidatesTags: ['HelpVideo'],
    }),
  }),
});

/** Who manages the account keeps the organisation's help videos (the API's rule). */
const KEEPERS = ['Manage account'];

/**
 * "Help videos" in a page's header: the organisation's videos for this page (its topic), each
 * opened on its platform. Who manages the account adds and removes them here; anyone else sees the
 * button only when the page has videos.
 */
export function HelpVideos({ topic }: { topic: HelpTopic }) {
  const t = useCommonT();
  const canKeep = useCan(KEEPERS);
  const { data } = helpVideosApi.useHelpVideosQuery(topic);
  const [opened, setOpened] = useState(false);
  const videos = data?.results ?? [];
  if (!canKeep && videos.length === 0) return null;
  return (
    <>
      <Button variant="default" leftSection={<IconPlayerPlay size={16} aria-hidden />} onClick={() => setOpened(true)}>
        {videos.length > 0 ? t('help.buttonCount', { count: videos.length }) : t('help.button')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('help.title', { topic: t(`help.topic.${topic}`) })} size="lg">
        <Stack gap="md">
          {videos.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('help.none')}
            </Text>
          ) : (
            <Stack gap="sm" role="list" aria-label={t('help.button')}>
              {videos.map((v) => (
                <div role="listitem" key={v.id}>
                  <HelpVideoRow video={v} canKeep={canKeep} />
                </div>
              ))}
            </Stack>
          )}
          {canKeep && <AddHelpVideo topic={topic} />}
        </Stack>
      </Modal>
    </>
  );
}

function HelpVideoRow({ video, canKeep }: { video: THelpVideo; canKeep: boolean }) {
  const t = useCommonT();
  const [remove, { isLoading }] = helpVideosApi.useRemoveHelpVideoMutation();
  const name = video.title || video.url;
  const href = httpUrl(video.url);
  return (
    <VideoItem
      video={video}
      title={
        // Linked only when http(s) (httpUrl): never a javascript: or data: address, even one stored before the API refused them.
        href ? (
          <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm" fw={500}>
            {name} <IconExternalLink size={12} aria-label={t('help.newTab')} />
          </Anchor>
        ) : (
          <Text size="sm" fw={500}>
            {name}
          </Text>
        )
      }
      actions={
        canKeep && (
          <ActionIcon variant="subtle" color="red" loading={isLoading} aria-label={t('help.remove', { name })} onClick={() => void remove(video.id)}>
            <IconTrash size={16} />
          </ActionIcon>
        )
      }
    />
  );
}

function AddHelpVideo({ topic }: { topic: HelpTopic }) {
  const t = useCommonT();
  const [add, { isLoading }] = helpVideosApi.useAddHelpVideoMutation();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string>();
  const submit = async () => {
    const res = await add({ url: url.trim(), topic });
    if ('error' in res) {
      return setError(errorMessages(res.error)[0] ?? t('help.notAdded'));
    }
    setError(undefined);
    setUrl('');
    if (res.data.notice) notifyError(res.data.notice);
    else notifySuccess(t('help.added', { title: res.data.title || res.data.url }));
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Stack gap="xs">
        <TextInput
          label={t('help.add')}
          description={t('help.addHint')}
          placeholder="https://www.youtube.com/watch?v=…"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={error}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={isLoading} disabled={!url.trim()}>
            {t('help.addButton')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
