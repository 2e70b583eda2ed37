import sharp from 'sharp';
import { expect } from 'vitest';
import type { Browser } from './http-client';

/** A real picture of the given size, made here (PNG by default). */
export function picture(width = 640, height = 480, format: 'png' | 'jpeg' | 'gif' = 'png') {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .toFormat(format)
    .toBuffer();
}

/** Announces an upload and PATCHes the bytes to its upload URL, as the editor does. */
export async function uploadImage(browser: Browser, experience: string, bytes: Buffer, name = 'photo.png') {
  const created = await browser.post('/api/images/', { original_name: name, experience });
  expect(created.statusCode, created.body).toBe(201);
  const res = await browser.request('PATCH', created.json().upload_url, bytes, { 'content-type': 'application/octet-stream' });
  return { id: created.json().id as string, res };
}

/** An experience with a description, an Adult price and an image: ready to go Active. */
export async function sellableExperience(browser: Browser, title = 'Sunset kayak tour') {
  const exp = await browser.post('/api/experiences/', {
    title,
    type: 'Ticket & Passes',
    short_description: 'Paddle into the sunset.',
    long_description: '<p>Two hours on the lake.</p>',
  });
  expect(exp.statusCode, exp.body).toBe(201);
  const id = exp.json().id as string;
  const category = await browser.post('/api/pricing-categories/', { type: 'Adult', label: `Adult ${title}` });
  expect(category.statusCode, category.body).toBe(201);
  const rate = await browser.post('/api/pricing-rates/', { experience: id, pricing_category: category.json().id, retail_price: 4900 });
  expect(rate.statusCode, rate.body).toBe(201);
  const { res } = await uploadImage(browser, id, await picture());
  expect(res.statusCode, res.body).toBe(200);
  const today = new Date().toISOString().slice(0, 10);
  const rule = await browser.post('/api/schedule-rules/', { experience: id, valid_from: today, start_times: ['10:00'], capacity: 8 });
  expect(rule.statusCode, rule.body).toBe(201);
  return { id, category: category.json().id as string, rate: rate.json().id as string, rule: rule.json().id as string };
}
