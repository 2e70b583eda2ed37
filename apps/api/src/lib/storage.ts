import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import type { Config } from '../config';

/**
 * Where uploaded media lives. Keys are `{account id}/{random}.{ext}` and never reused, so what a
 * key names never changes (it can be cached forever). The default keeps files on local disk
 * under DATA_DIR/media; a shared object store is the production choice once one is configured.
 */
export interface Storage {
  put(key: string, data: Buffer): Promise<void>;
  read(key: string): Promise<{ stream: NodeJS.ReadableStream; size: number } | null>;
  remove(key: string): Promise<void>;
}

const SAFE_KEY = /^[0-9a-f-]{36}\/[A-Za-z0-9_-]{8,64}\.(jpg|png|webp)$/;

export function localStorage(root: string): Storage {
  const file = (key: string) => {
    if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, data) {
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, data);
    },
    async read(key) {
      if (!SAFE_KEY.test(key)) return null;
      try {
        const info = await stat(file(key));
        return { stream: createReadStream(file(key)), size: info.size };
      } catch {
        return null;
      }
    },
    async remove(key) {
      await rm(file(key), { force: true });
    },
  };
}

export const isStorageKey = (key: string) => SAFE_KEY.test(key);

const CONTENT_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/**
 * An S3-compatible bucket (S3_BUCKET, with S3_ENDPOINT for MinIO, R2 and the like). The AWS SDK is
 * loaded at the first call, so a process storing on local disk never loads it (~0.2 s of CPU).
 */
export function s3Storage(config: Config): Storage {
  const bucket = config.S3_BUCKET!;
  let loaded: Promise<{ sdk: typeof S3; client: S3.S3Client }> | undefined;
  const s3 = () =>
    (loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.S3_REGION,
        ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
        ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
          ? { credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } }
          : {}),
      }),
    })));
  return {
    async put(key, data) {
      if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key: ${key}`);
      const { sdk, client } = await s3();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: data,
          ContentType: CONTENT_TYPES[key.split('.').pop()!],
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    },
    async read(key) {
      if (!SAFE_KEY.test(key)) return null;
      const { sdk, client } = await s3();
      try {
        const res = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!res.Body) return null;
        return { stream: res.Body as Readable, size: Number(res.ContentLength ?? 0) };
      } catch (error) {
        if (error instanceof sdk.NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async remove(key) {
      if (!SAFE_KEY.test(key)) return;
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}

/** S3 when a bucket is configured, otherwise DATA_DIR/media on local disk. */
export const storageFor = (config: Config): Storage =>
  config.S3_BUCKET ? s3Storage(config) : localStorage(path.join(config.dataDir, 'media'));
