import '@mantine/dropzone/styles.css';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, rectSortingStrategy, SortableContext, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Badge, Button, Card, Group, Image, Progress, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconGripVertical, IconPhoto, IconTrash, IconUpload, IconX } from '@tabler/icons-react';
import { IMAGE_LIMITS, type TExperience, type TImage } from '@tourdesk/contracts';
import { useState } from 'react';
import { uploadFile } from '../../../shared/api/upload';
import { useAppDispatch } from '../../../shared/hooks/store';
import { notifyError, notifySuccess } from '../../../shared/lib/toast';
import { VideoItem } from '../../../shared/components/VideoItem';
import { useAddVideoMutation, useCreateImageMutation, useDeleteImageMutation, useDeleteVideoMutation, useReorderImagesMutation } from '../api';
import { experiencesApi } from '../api';
import { errorMessages } from '../../../shared/api/errors';
import { useOfferEditorT } from '../editor-texts';

export const FILES_UPLOADED = 'Files uploaded!';

interface Upload {
  key: string;
  name: string;
  progress: number;
  error?: string;
}

function SortableImage({ image, index, onDelete }: { image: TImage; index: number; onDelete: () => void }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: image.id });
  const t = useOfferEditorT();
  return (
    <Card
      ref={setNodeRef}
      withBorder
      padding={4}
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1 }}
      data-testid="media-image"
      data-name={image.original_name}
    >
      <Card.Section pos="relative">
        <Image src={image.thumbnail_url ?? undefined} h={120} fit="cover" alt={image.original_name} />
        {index === 0 && (
          <Badge pos="absolute" top={6} left={6} size="sm">
            {t('media.cover')}
          </Badge>
        )}
      </Card.Section>
      <Group justify="space-between" wrap="nowrap" mt={4}>
        <ActionIcon variant="subtle" aria-label={t('media.move', { name: image.original_name })} {...attributes} {...listeners} style={{ cursor: 'grab' }}>
          <IconGripVertical size={16} />
        </ActionIcon>
        <Text size="xs" truncate="end" style={{ flex: 1 }}>
          {image.original_name}
        </Text>
        <ActionIcon variant="subtle" color="red" aria-label={t('media.delete', { name: image.original_name })} onClick={onDelete}>
          <IconTrash size={16} />
        </ActionIcon>
      </Group>
    </Card>
  );
}

function Images({ experience }: { experience: TExperience }) {
  const dispatch = useAppDispatch();
  const t = useOfferEditorT();
  const [createImage] = useCreateImageMutation();
  const [deleteImage] = useDeleteImageMutation();
  const [reorder] = useReorderImagesMutation();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [order, setOrder] = useState<string[] | null>(null);
  const ready = experience.images.filter((i) => i.status === 'ready');
  const ids = order && order.length === ready.length && order.every((id) => ready.some((i) => i.id === id)) ? order : ready.map((i) => i.id);
  const byId = new Map(ready.map((i) => [i.id, i]));
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));

  const upload = async (files: File[]) => {
    const batch = files.map((f, i) => ({ key: `${Date.now()}-${i}-${f.name}`, name: f.name, progress: 0 }));
    setUploads((u) => [...u, ...batch]);
    const set = (key: string, patch: Partial<Upload>) => setUploads((u) => u.map((x) => (x.key === key ? { ...x, ...patch } : x)));
    let succeeded = 0;
    await Promise.all(
      files.map(async (file, i) => {
        const key = batch[i]!.key;
        const created = await createImage({ original_name: file.name, experience: experience.id });
        if ('error' in created) return set(key, { error: t('media.couldNotStart') });
        try {
          await uploadFile(dispatch, created.data.upload_url!, file, (p) => set(key, { progress: Math.round(p * 100) }));
          succeeded++;
          setUploads((u) => u.filter((x) => x.key !== key));
        } catch (e) {
          const detail = e instanceof Error ? e.message : t('media.unknownError');
          notifyError(`Upload failed: ${detail}`);
          set(key, { error: detail });
          await dispatch(experiencesApi.endpoints.deleteImage.initiate(created.data.id));
        }
      }),
    );
    dispatch(experiencesApi.util.invalidateTags(['Experience']));
    if (succeeded > 0) notifySuccess(FILES_UPLOADED);
  };

  const onDragEnd = async ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const next = arrayMove(ids, ids.indexOf(String(active.id)), ids.indexOf(String(over.id)));
    setOrder(next);
    const res = await reorder({ id: experience.id, images: next });
    if ('error' in res) setOrder(null);
    else notifySuccess(t('media.newOrder'));
  };

  return (
    <Card withBorder padding="lg">
      <Title order={4}>{t('media.images')}</Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('media.imagesHint', { mb: String(IMAGE_LIMITS.maxBytes / 1024 / 1024), width: String(IMAGE_LIMITS.minWidth), height: String(IMAGE_LIMITS.minHeight) })}
      </Text>
      <Dropzone
        onDrop={upload}
        onReject={(rejections) => rejections.forEach((r) => notifyError(`Upload failed: ${r.file.name}: ${r.errors.map((e) => (e.code === 'file-too-large' ? t('media.tooLarge', { mb: String(IMAGE_LIMITS.maxBytes / 1024 / 1024) }) : e.message)).join(', ')}`))}
        maxSize={IMAGE_LIMITS.maxBytes}
        accept={[...IMAGE_LIMITS.types]}
        multiple
        data-testid="image-dropzone"
      >
        <Group justify="center" gap="md" mih={110} style={{ pointerEvents: 'none' }}>
          <Dropzone.Accept>
            <IconUpload size={40} />
          </Dropzone.Accept>
          <Dropzone.Reject>
            <IconX size={40} />
          </Dropzone.Reject>
          <Dropzone.Idle>
            <IconPhoto size={40} />
          </Dropzone.Idle>
          <div>
            <Text size="lg">{t('media.drop')}</Text>
            {/* Not dimmed: the zone darkens under the pointer, and grey on it fell below 4.5:1 in dark mode. */}
            <Text size="sm">{t('media.several')}</Text>
          </div>
        </Group>
      </Dropzone>
      {uploads.length > 0 && (
        <Stack gap="xs" mt="md" role="group" aria-label={t('media.uploads')}>
          {uploads.map((u) => (
            <div key={u.key} data-testid="upload-progress">
              <Group justify="space-between">
                <Text size="sm">{u.name}</Text>
                <Text size="sm" c={u.error ? 'red' : 'dimmed'}>
                  {u.error ? t('media.failed', { error: u.error }) : `${u.progress}%`}
                </Text>
              </Group>
              <Progress value={u.progress} color={u.error ? 'red' : 'blue'} animated={!u.error && u.progress < 100} aria-label={t('media.progress', { name: u.name })} />
            </div>
          ))}
        </Stack>
      )}
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={ids} strategy={rectSortingStrategy}>
          <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} mt="md" aria-label={t('media.inOrder')}>
            {ids.map((id, index) => {
              const image = byId.get(id);
              return image ? (
                <SortableImage
                  key={id}
                  image={image}
                  index={index}
                  onDelete={async () => {
                    const res = await deleteImage(id);
                    if (!('error' in res)) notifySuccess(t('media.deleted', { name: image.original_name }));
                  }}
                />
              ) : null;
            })}
          </SimpleGrid>
        </SortableContext>
      </DndContext>
    </Card>
  );
}

function Videos({ experience }: { experience: TExperience }) {
  const [add, { isLoading }] = useAddVideoMutation();
  const [remove] = useDeleteVideoMutation();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string>();
  const t = useOfferEditorT();
  return (
    <Card withBorder padding="lg">
      <Title order={4}>{t('media.videos')}</Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('media.videosHint')}
      </Text>
      <Group align="flex-start">
        <TextInput aria-label={t('media.videoUrl')} placeholder="https://www.youtube.com/watch?v=…" value={url} onChange={(e) => setUrl(e.currentTarget.value)} error={error} style={{ flex: 1 }} />
        <Button
          loading={isLoading}
          disabled={!url.trim()}
          onClick={async () => {
            const res = await add({ url: url.trim(), experience: experience.id });
            if ('error' in res) {
              return setError(errorMessages(res.error)[0] ?? t('media.videoNotAdded'));
            }
            setError(undefined);
            setUrl('');
            if (res.data.notice) notifyError(res.data.notice);
            else notifySuccess(t('media.videoAdded', { title: res.data.title }));
          }}
        >
          {t('media.addVideo')}
        </Button>
      </Group>
      <Stack gap="sm" mt="md" role="group" aria-label={t('media.videos')}>
        {experience.videos.map((v) => (
          <div key={v.id} data-testid="media-video">
            <VideoItem
              video={v}
              actions={
                <ActionIcon variant="subtle" color="red" aria-label={t('media.removeVideo', { name: v.title || v.url })} onClick={() => remove(v.id)}>
                  <IconTrash size={16} />
                </ActionIcon>
              }
            />
          </div>
        ))}
      </Stack>
    </Card>
  );
}

export function MediaStep({ experience }: { experience: TExperience }) {
  return (
    <Stack gap="lg" maw={1100}>
      <Images experience={experience} />
      <Videos experience={experience} />
    </Stack>
  );
}
