import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { image } from '../src/db/schema';
import { stripStoredOriginals } from '../src/modules/media/images';
import { uploadImage } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

// A phone photo carries where it was taken. None of these may be served, in the original or the thumbnail.
const SECRETS = ['WGS-84', 'secret-camera', 'xmp-secret', 'comment-secret', 'iptc-secret', 'png-text-secret'];
const GPS = { GPSLatitudeRef: 'N', GPSLatitude: '47/1 22/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '8/1 32/1 0/1', GPSMapDatum: 'WGS-84' };
const XMP = `<?xml version="1.0"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="47,22.0N" exif:UserComment="xmp-secret"/></rdf:RDF></x:xmpmeta>`;

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let experienceId: string;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'alps' });
  experienceId = (await owner.post('/api/experiences/', { title: 'Glacier walk', type: 'Ticket & Passes' })).json().id;
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/** A picture whose left half is red and right half blue, as the camera's sensor saw it. */
const halves = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 255 } } }).composite([
    { input: { create: { width: width / 2, height, channels: 3, background: { r: 255, g: 0, b: 0 } } }, left: 0, top: 0 },
  ]);

/** Puts a JPEG segment (marker, then its data) right after the start of the image. */
function withJpegSegment(jpeg: Buffer, marker: number, data: Buffer) {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(data.length + 2);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, marker]), length, data, jpeg.subarray(2)]);
}

/** An APP13 Photoshop block holding an IPTC City (2:90), as cameras and photo editors write it. */
function iptcSegment(city: string) {
  const dataset = Buffer.concat([Buffer.from([0x1c, 0x02, 0x5a, 0x00, city.length]), Buffer.from(city, 'latin1')]);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(dataset.length);
  const pad = dataset.length % 2 ? Buffer.from([0]) : Buffer.alloc(0);
  return Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), Buffer.from('8BIM', 'latin1'), Buffer.from([0x04, 0x04, 0x00, 0x00]), size, dataset, pad]);
}

/** Puts a PNG chunk right after the IHDR chunk. */
function withPngChunk(png: Buffer, type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([png.subarray(0, 33), length, body, crc, png.subarray(33)]);
}

/** The colour of the pixel at (x, y). */
async function pixel(bytes: Buffer, x: number, y: number) {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

async function upload(bytes: Buffer, name: string) {
  const { res } = await uploadImage(owner, experienceId, bytes, name);
  expect(res.statusCode, res.body).toBe(200);
  const img = res.json();
  const original = await owner.get(img.url);
  expect(original.statusCode).toBe(200);
  const thumbnail = await owner.get(img.thumbnail_url);
  expect(thumbnail.statusCode).toBe(200);
  return { img, original: original.rawPayload, originalType: original.headers['content-type'], thumbnail: thumbnail.rawPayload };
}

/** No EXIF (so no GPS), XMP, IPTC, comment or orientation tag, and none of the secrets anywhere in the bytes. */
async function expectNoMetadata(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.xmpAsString).toBeUndefined();
  expect(meta.iptc).toBeUndefined();
  expect(meta.comments).toBeUndefined();
  expect([undefined, 1]).toContain(meta.orientation);
  const text = bytes.toString('latin1');
  for (const secret of SECRETS) expect(text).not.toContain(secret);
  expect(text).not.toContain('GPS');
  return meta;
}

describe('uploaded images are stored and served without metadata', () => {
  it('strips EXIF with GPS, XMP, IPTC and comments from a phone JPEG, turned upright, with its colour profile', async () => {
    let bytes = await sharp(await halves(1200, 800).png().toBuffer())
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { ImageDescription: 'secret-camera', Make: 'PhoneCo' }, IFD3: GPS })
      .withXmp(XMP)
      .withIccProfile('p3')
      .toBuffer();
    bytes = withJpegSegment(bytes, 0xed, iptcSegment('iptc-secret'));
    bytes = withJpegSegment(bytes, 0xfe, Buffer.from('GPS 47.3667N 8.5333E comment-secret', 'latin1'));
    // The upload really carries all of it (the GPS IFD holds WGS-84 as plain text).
    const sent = await sharp(bytes).metadata();
    expect(sent).toMatchObject({ format: 'jpeg', width: 1200, height: 800, orientation: 6 });
    expect(sent.exif?.toString('latin1')).toContain('WGS-84');
    expect(sent.xmpAsString).toContain('xmp-secret');
    expect(sent.iptc?.toString('latin1')).toContain('iptc-secret');
    expect(sent.icc).toBeDefined();

    const { img, original, originalType, thumbnail } = await upload(bytes, 'glacier.jpg');
    // The upright picture is 800×1200, and so are the stored dimensions.
    expect(img).toMatchObject({ status: 'ready', content_type: 'image/jpeg', width: 800, height: 1200, size_bytes: original.length });
    expect(originalType).toBe('image/jpeg');
    const meta = await expectNoMetadata(original);
    expect(meta).toMatchObject({ format: 'jpeg', width: 800, height: 1200 });
    // The pixels were turned, not just the tag dropped: the sensor's left (red) half is now the top.
    const [top, bottom] = [await pixel(original, 400, 100), await pixel(original, 400, 1100)];
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(60);
    expect(bottom[2]).toBeGreaterThan(200);
    expect(bottom[0]).toBeLessThan(60);
    // The colour profile is the photo's own (Display P3), not dropped nor replaced.
    expect(meta.icc?.equals(sent.icc!)).toBe(true);

    const thumb = await expectNoMetadata(thumbnail);
    expect(thumb).toMatchObject({ format: 'webp', width: 480, height: 720 });
    expect(thumb.icc).toBeUndefined();
  });

  it('strips eXIf, XMP and text chunks from a PNG, losslessly and upright', async () => {
    let bytes = await sharp(await halves(640, 480).png().toBuffer())
      .png()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { ImageDescription: 'secret-camera' }, IFD3: GPS })
      .withXmp(XMP)
      .toBuffer();
    bytes = withPngChunk(bytes, 'tEXt', Buffer.from('Comment\0GPS png-text-secret', 'latin1'));
    const sent = await sharp(bytes).metadata();
    expect(sent).toMatchObject({ format: 'png', width: 640, height: 480, orientation: 6 });
    expect(sent.exif?.toString('latin1')).toContain('WGS-84');
    expect(sent.xmpAsString).toContain('xmp-secret');
    expect(sent.comments).toEqual([{ keyword: 'Comment', text: 'GPS png-text-secret' }]);

    const { img, original, originalType, thumbnail } = await upload(bytes, 'map.png');
    expect(img).toMatchObject({ content_type: 'image/png', width: 480, height: 640, size_bytes: original.length });
    expect(originalType).toBe('image/png');
    const meta = await expectNoMetadata(original);
    expect(meta).toMatchObject({ format: 'png', width: 480, height: 640 });
    // Lossless: exactly the pixels of the upright upload.
    const upright = await sharp(bytes).rotate().raw().toBuffer();
    expect((await sharp(original).raw().toBuffer()).equals(upright)).toBe(true);
    expect(await expectNoMetadata(thumbnail)).toMatchObject({ format: 'webp', width: 480, height: 640 });
  });

  it('strips EXIF and XMP from a WebP and keeps it a WebP', async () => {
    const bytes = await halves(800, 600)
      .webp({ quality: 90 })
      .withExif({ IFD0: { ImageDescription: 'secret-camera' }, IFD3: GPS })
      .withXmp(XMP)
      .toBuffer();
    expect((await sharp(bytes).metadata()).exif?.toString('latin1')).toContain('WGS-84');

    const { img, original, originalType, thumbnail } = await upload(bytes, 'ridge.webp');
    expect(img).toMatchObject({ content_type: 'image/webp', width: 800, height: 600, size_bytes: original.length });
    expect(originalType).toBe('image/webp');
    expect(await expectNoMetadata(original)).toMatchObject({ format: 'webp', width: 800, height: 600 });
    const [red, , blue] = await pixel(original, 100, 300);
    expect(red).toBeGreaterThan(200);
    expect(blue).toBeLessThan(60);
    await expectNoMetadata(thumbnail);
  });

  it('keeps a lossless WebP lossless and an animated WebP animated', async () => {
    const lossless = await halves(400, 300).webp({ lossless: true }).withXmp(XMP).toBuffer();
    const { original } = await upload(lossless, 'lossless.webp');
    await expectNoMetadata(original);
    expect((await sharp(original).raw().toBuffer()).equals(await sharp(lossless).raw().toBuffer())).toBe(true);

    const frame = (r: number, b: number) => sharp({ create: { width: 300, height: 200, channels: 3, background: { r, g: 0, b } } }).webp().toBuffer();
    const animated = await sharp([await frame(255, 0), await frame(0, 255)], { join: { animated: true } })
      .webp({ loop: 0, delay: [200, 300] })
      .withExif({ IFD3: GPS })
      .toBuffer();
    const { img, original: stored } = await upload(animated, 'blink.webp');
    expect(img).toMatchObject({ width: 300, height: 200 });
    expect(await expectNoMetadata(stored)).toMatchObject({ format: 'webp', width: 300, height: 200, pages: 2, delay: [200, 300] });
  });

  it('adds no colour profile to a picture that had none', async () => {
    const { original } = await upload(await halves(400, 300).jpeg().toBuffer(), 'plain.jpg');
    const meta = await expectNoMetadata(original);
    expect(meta.icc).toBeUndefined();
  });
});

describe('originals stored before uploads were re-encoded', () => {
  it('are re-encoded once by the job images-strip-metadata, under a new key, and served clean', async () => {
    const tagged = await halves(640, 480)
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret-camera' }, IFD3: GPS })
      .toBuffer();
    expect(tagged.includes(Buffer.from('WGS-84'))).toBe(true);
    // As an older version stored it: the uploaded bytes as they came, not yet checked.
    const accountId = (await owner.get('/api/users/me/')).json().base_account.id as string;
    const key = `${accountId}/olderupload1234.jpg`;
    await t.app.storage.put(key, tagged);
    const [row] = await t.database.db
      .insert(image)
      .values({ account_id: accountId, experience_id: experienceId, status: 'ready', original_name: 'old.jpg', content_type: 'image/jpeg', width: 640, height: 480, size_bytes: tagged.length, storage_key: key, thumbnail_key: null, metadata_checked: false })
      .returning();
    expect(await stripStoredOriginals(t.database.db, t.app.storage, { warn: () => undefined })).toBeGreaterThanOrEqual(1);
    const listed = (await owner.get(`/api/images/?experience=${experienceId}`)).json().results.find((i: { id: string }) => i.id === row!.id);
    expect(listed.url).not.toContain('olderupload1234');
    const served = (await owner.get(listed.url)).rawPayload;
    for (const secret of SECRETS) expect(served.includes(Buffer.from(secret))).toBe(false);
    const meta = await sharp(served).metadata();
    expect([meta.exif, meta.xmp, meta.iptc]).toEqual([undefined, undefined, undefined]);
    expect(await t.app.storage.read(key)).toBeNull();
    // Done once: nothing left to do.
    expect(await stripStoredOriginals(t.database.db, t.app.storage, { warn: () => undefined })).toBe(0);
  });
});
