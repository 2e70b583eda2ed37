import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

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
