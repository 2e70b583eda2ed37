import jsQR from 'jsqr';
import { describe, expect, it, vi } from 'vitest';
import { createPdf, documentMoney, drawable, drawQr, PAPER } from './pdf';

/** Each text item of each page with where it starts and how wide it is, as a reader extracts them. */
async function read(bytes: Uint8Array) {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: bytes, verbosity: 0 }).promise;
  const pages = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const items = (await page.getTextContent()).items.flatMap((i) => ('str' in i && i.str.trim() ? [{ str: i.str, x: i.transform[4] as number, y: i.transform[5] as number, width: i.width }] : []));
    pages.push({ view: page.view, items });
  }
  return { title: ((await doc.getMetadata()).info as { Title?: string }).Title, pages };
}

describe('the PDF kit', () => {
  it('makes a document of the paper asked for, with the texts drawn where they were placed', async () => {
    const pdf = await createPdf(PAPER.A4, { title: 'Invoice INV-2026-00001', author: 'Tours Ltd' });
    const page = pdf.addPage();
    const { left, right, top } = pdf.paper;
    pdf.text(page, 'Tours Ltd', left, top, { size: 16, font: pdf.bold });
    pdf.text(page, 'Invoice INV-2026-00001', right, top, { size: 16, font: pdf.bold, align: 'right' });
    pdf.text(page, 'Scan to book online', 300, 500, { align: 'center' });
    pdf.text(page, `Total ${documentMoney(123450, 'EUR')}`, left, 400);
    pdf.text(page, `Total ${documentMoney(1200, 'JPY')}`, left, 380);
    pdf.text(page, `Total ${documentMoney(1250, 'KWD')}`, left, 360);
    pdf.text(page, `Refund ${documentMoney(-5000, 'CHF')}`, left, 340);
    pdf.rule(page, 330);
    pdf.addPage();
    const { title, pages } = await read(await pdf.save());

    expect(title).toBe('Invoice INV-2026-00001');
    expect(pages.map((p) => p.view)).toEqual([
      [0, 0, 595.28, 841.89],
      [0, 0, 595.28, 841.89],
    ]);
    const at = (str: string) => pages[0]!.items.find((i) => i.str === str)!;
    expect(pages[0]!.items.map((i) => i.str)).toEqual(['Tours Ltd', 'Invoice INV-2026-00001', 'Scan to book online', 'Total EUR 1,234.50', 'Total JPY 1,200', 'Total KWD 1.250', 'Refund -CHF 50.00']);
    expect(at('Tours Ltd')).toMatchObject({ x: left, y: top });
    // Right-aligned text ends at x; centred text is centred on it (by the fonts' own widths).
    expect(at('Invoice INV-2026-00001').x).toBeCloseTo(right - pdf.bold.widthOfTextAtSize('Invoice INV-2026-00001', 16), 3);
    expect(at('Scan to book online').x).toBeCloseTo(300 - pdf.regular.widthOfTextAtSize('Scan to book online', 10) / 2, 3);
  });

  it('writes money as documents print it: the currency code and its own decimals, spaces not no-break spaces', () => {
    expect(documentMoney(123450, 'EUR')).toBe('EUR 1,234.50');
    expect(documentMoney(1200, 'JPY')).toBe('JPY 1,200');
    expect(documentMoney(1250, 'KWD')).toBe('KWD 1.250');
    expect(documentMoney(0, 'CHF')).toBe('CHF 0.00');
    expect(documentMoney(99, 'INR')).toBe('INR 0.99');
  });

  it('draws only what the standard fonts can: other characters become "?", a line break a space', async () => {
    const pdf = await createPdf(PAPER.A5, { title: 'Tickets' });
    expect(drawable(pdf.regular, '2 × Adult – €12 … naïve ✓ 🚲\nnext')).toBe('2 × Adult – €12 … naïve ? ? next');
    // Every letter of the customers' languages; Intl's narrow spaces as spaces; other Latin letters as their base letter.
    expect(drawable(pdf.regular, 'Straße à côté, Müller, niño, œuvre « prix » l’été')).toBe('Straße à côté, Müller, niño, œuvre « prix » l’été');
    expect(drawable(pdf.regular, '1\u202f234,50 EUR, 12,5\u202f%')).toBe('1 234,50 EUR, 12,5 %');
    expect(drawable(pdf.bold, 'Łukasz Dvořák, Őrs')).toBe('Lukasz Dvorák, Ors');
    const page = pdf.addPage();
    pdf.text(page, 'Kayak ✓ tour', pdf.paper.left, pdf.paper.top);
    const { pages } = await read(await pdf.save());
    expect(pages[0]!.view).toEqual([0, 0, 420, 595]);
    expect(pages[0]!.items.map((i) => i.str)).toEqual(['Kayak ? tour']);
  });

  it('wraps words into lines no wider than asked, cutting a word longer than a line, and fits a text with "…"', async () => {
    const pdf = await createPdf(PAPER['A4 landscape'], { title: 'Manifest' });
    const width = (s: string) => pdf.regular.widthOfTextAtSize(s, 10);
    const lines = pdf.wrap('Harbour walk with lunch on the old pier\nNote: window seat', 100);
    expect(lines.join(' ')).toBe('Harbour walk with lunch on the old pier Note: window seat');
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) expect(width(l)).toBeLessThanOrEqual(100);
    expect(lines.at(-1)).toBe('Note: window seat'); // a paragraph starts a line
    const long = pdf.wrap('x'.repeat(60), 100);
    expect(long.join('')).toBe('x'.repeat(60));
    for (const l of long) expect(width(l)).toBeLessThanOrEqual(100);
    expect(pdf.wrap('', 100)).toEqual(['']);

    const fitted = pdf.fit('A very long offer name that does not fit in its column', 120, 9);
    expect(fitted.endsWith('…')).toBe(true);
    expect(pdf.regular.widthOfTextAtSize(fitted, 9)).toBeLessThanOrEqual(120);
    expect('A very long offer name that does not fit in its column'.startsWith(fitted.slice(0, -1))).toBe(true);
    expect(pdf.fit('Short', 120)).toBe('Short');
    expect(pdf.paper.size).toEqual([841.89, 595.28]);
  });

  it('draws a QR code as squares that a reader decodes back to the text', async () => {
    const pdf = await createPdf(PAPER.A5, { title: 'QR' });
    const page = pdf.addPage();
    const squares: { x: number; y: number; width: number; height: number; dark: boolean }[] = [];
    const draw = page.drawRectangle.bind(page);
    vi.spyOn(page, 'drawRectangle').mockImplementation((o = {}) => {
      const c = o.color as { red: number } | undefined;
      squares.push({ x: o.x!, y: o.y!, width: o.width!, height: o.height!, dark: c?.red === 0 });
      draw(o);
    });
    const text = 'https://tours.example.com/q/AB12CD';
    const [x, y, size] = [85, 170, 250];
    drawQr(page, text, x, y, size);

    // A white square of the size asked for, then the dark modules inside it, each the same square.
    expect(squares[0]).toEqual({ x, y, width: size, height: size, dark: false });
    const modules = squares.slice(1);
    expect(modules.length).toBeGreaterThan(100);
    expect(modules.every((m) => m.dark && m.width === m.height && m.width === modules[0]!.width)).toBe(true);
    for (const m of modules) {
      expect(m.x).toBeGreaterThanOrEqual(x + 4 * m.width - 1e-9); // the quiet zone: four modules
      expect(m.x + m.width).toBeLessThanOrEqual(x + size - 4 * m.width + 1e-9);
    }

    // Rasterised at 2 px a point (white paper, the dark squares filled), the picture decodes back.
    const scale = 2;
    const px = Math.round(size * scale);
    const rgba = new Uint8ClampedArray(px * px * 4).fill(255);
    for (const m of modules) {
      const [x0, x1] = [(m.x - x) * scale, (m.x - x + m.width) * scale];
      // PDF y grows upwards, the picture's rows downwards.
      const [r0, r1] = [(y + size - (m.y + m.height)) * scale, (y + size - m.y) * scale];
      for (let r = Math.round(r0); r < Math.round(r1); r++) {
        for (let c = Math.round(x0); c < Math.round(x1); c++) rgba.fill(0, (r * px + c) * 4, (r * px + c) * 4 + 3);
      }
    }
    expect(jsQR(rgba, px, px)?.data).toBe(text);
    expect((await pdf.save()).length).toBeGreaterThan(0);
  });
});
