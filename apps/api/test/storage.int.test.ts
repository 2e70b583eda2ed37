import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorage, s3Storage, type Storage } from '../src/lib/storage';
import { picture, uploadImage } from './catalog-fixtures';
import { createTestApp, testConfig, type TestApp } from './harness';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Media storage on local disk and in an S3-compatible bucket. The bucket is a real S3 server
 * speaking the S3 protocol over HTTP on this machine (s3rver), reached with the AWS SDK.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'tourdesk-s3-'));
let s3: S3rver;
let s3Env: Record<string, string>;

beforeAll(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'tourdesk-media', configs: [] }] });
  const { port } = await s3.run();
  s3Env = {
    S3_BUCKET: 'tourdesk-media',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
});
afterAll(async () => {
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

const KEY = '6f1d2c3b-0000-4000-8000-000000000001/AbCdEfGhIjKl.png';

describe.each([
  ['local disk', () => localStorage(mkdtempSync(path.join(tmpdir(), 'tourdesk-media-')))],
  ['S3', () => s3Storage(testConfig(s3Env))],
])('%s storage', (_name, make: () => Storage) => {
  it('keeps, reads back and removes a file, and refuses unsafe keys', async () => {
    const storage = make();
    const data = await picture(300, 200);
    await storage.put(KEY, data);
    const file = await storage.read(KEY);
    expect(file?.size).toBe(data.length);
    const chunks: Buffer[] = [];
    for await (const chunk of file!.stream) chunks.push(Buffer.from(chunk as Buffer));
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
    await storage.remove(KEY);
    expect(await storage.read(KEY)).toBeNull();
    await expect(storage.put('../../etc/passwd', data)).rejects.toThrow(/unsafe/);
    expect(await storage.read('../secret.png')).toBeNull();
  });
});

describe('the API with an S3 bucket', () => {
  let t: TestApp;
  let sink: MailSink;
  beforeAll(async () => {
    sink = await startMailSink();
    t = await createTestApp({ env: { SMTP_URL: sink.url, ...s3Env } });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('stores uploads in the bucket and serves them from there', async () => {
    const owner = await createOrganisation(t.app, sink, { subdomain: 'bucket' });
    const exp = (await owner.post('/api/experiences/', { title: 'Stored in S3', type: 'Rental' })).json().id;
    const { res } = await uploadImage(owner, exp, await picture(800, 600));
    expect(res.statusCode, res.body).toBe(200);
    const served = await owner.get(res.json().url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    const key = res.json().url.replace('/api/media/', '');
    expect(await s3Storage(testConfig(s3Env)).read(key)).not.toBeNull();
    expect((await owner.delete(`/api/images/${res.json().id}/`)).statusCode).toBe(204);
    expect(await s3Storage(testConfig(s3Env)).read(key)).toBeNull();
  });
});
