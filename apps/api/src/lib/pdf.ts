import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import QRCode from 'qrcode';

export type { PDFFont, PDFPage } from 'pdf-lib';

/**
 * The one kit every PDF of the API is drawn with (invoices and credit notes, tickets, the order
 * confirmation, manifests, QR code flyers, settlement statements): a document with its two fonts
 * (Helvetica and Helvetica Bold, the standard 14: nothing to embed but their metrics), pages of a
 * standard paper with its margins, text the fonts can draw (aligned, wrapped or fitted to a width),
 * rules, money as documents print it and QR codes drawn as squares.
 */

/** Paper sizes in points, with the margins text keeps to: x from `left` to `right`, the first line at `top`. */
export const PAPER = {
  A4: { size: [595.28, 841.89], left: 50, right: 545, top: 790 },
  'A4 landscape': { size: [841.89, 595.28], left: 36, right: 841.89 - 36, top: 595.28 - 44 },
  A5: { size: [420, 595], left: 36, right: 384, top: 555 },
} as const satisfies Record<string, { size: readonly [number, number]; left: number; right: number; top: number }>;
export type Paper = (typeof PAPER)[keyof typeof PAPER];

/** Text's colour; greys for what is secondary (`grey(0.4)`, or bluish `grey(0.4, 0.45)`); rules under headers and totals. */
export const INK = rgb(0.1, 0.1, 0.12);
export const grey = (level: number, blue = level) => rgb(level, level, blue);
export const RULE = grey(0.6);

/** An amount as documents print it, with the currency's own decimals: "EUR 1,234.50", "JPY 1,200", "KWD 1.250". */
export { moneyText as documentMoney } from '@tourdesk/contracts';

/** Letters outside WinAnsi that no accent-stripping reaches, as their base letter. */
const BASE_LETTERS: Record<string, string> = { ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ħ: 'h', Ħ: 'H', ı: 'i', ŀ: 'l', Ŀ: 'L', ŧ: 't', Ŧ: 'T' };
/** Spaces Intl writes in numbers and dates (narrow no-break, thin, figure…): drawn as a space. */
const SPACES = /[\u2000-\u200a\u202f\u205f]/g;

/**
 * Text the standard fonts can draw. Their WinAnsi set has every letter of English, German, French,
 * Italian and Spanish (ß é è à ç ñ ü œ « » ’ €…); a line break and the narrow spaces of Intl's
 * numbers and dates become a space; another letter is drawn as its base letter (č → c, ő → o, ł → l),
 * any other character as '?'.
 */
const characterSets = new WeakMap<PDFFont, Set<number>>();
export const drawable = (font: PDFFont, text: string) => {
  const known = characterSets.get(font) ?? new Set(font.getCharacterSet());
  characterSets.set(font, known);
  const draws = (s: string) => [...s].every((c) => known.has(c.codePointAt(0)!));
  return [...text.replace(/\r?\n/g, ' ').replace(SPACES, ' ')]
    .map((ch) => {
      if (known.has(ch.codePointAt(0)!)) return ch;
      const base = BASE_LETTERS[ch] ?? ch.normalize('NFD').replace(/\p{M}/gu, '');
      return base && base !== ch && draws(base) ? base : '?';
    })
    .join('');
};

export interface TextStyle {
  size?: number;
  /** The document's regular font unless given. */
  font?: PDFFont;
  color?: RGB;
  /** Where `x` is: the text's left edge, its right edge, or its centre. */
  align?: 'left' | 'right' | 'center';
  /** pdf-lib breaks a longer text into lines below the first. */
  maxWidth?: number;
}

/** A document being drawn: its fonts and paper, and what draws on its pages. */
export interface Pdf {
  doc: PDFDocument;
  regular: PDFFont;
  bold: PDFFont;
  paper: Paper;
  /** A new page of the document's paper. */
  addPage(): PDFPage;
  /** Draws `str` (made drawable) with its baseline at `y`; 10 pt regular ink unless styled. */
  text(page: PDFPage, str: string, x: number, y: number, style?: TextStyle): void;
  /** Words laid into lines no wider than `width`, paragraph by paragraph; a word longer than a line is cut. */
  wrap(str: string, width: number, size?: number, font?: PDFFont): string[];
  /** The text cut short with '…' until it is no wider than `width`. */
  fit(str: string, width: number, size?: number, font?: PDFFont): string;
  /** A horizontal line from the left margin to the right one. */
  rule(page: PDFPage, y: number, thickness?: number, color?: RGB): void;
  save(): Promise<Uint8Array>;
}

/** A new document on `paper` with its title (and author), its fonts embedded. */
export async function createPdf(paper: Paper, meta: { title: string; author?: string }): Promise<Pdf> {
  const doc = await PDFDocument.create();
  doc.setTitle(meta.title);
  if (meta.author !== undefined) doc.setAuthor(meta.author);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const wrap = (str: string, width: number, size = 10, font = regular) => {
    const lines: string[] = [];
    for (const paragraph of str.split('\n')) {
      let line = '';
      for (const word of drawable(font, paragraph).split(' ')) {
        const next = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(next, size) <= width) line = next;
        else {
          if (line) lines.push(line);
          let rest = word;
          while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
            let cut = rest.length - 1;
            while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
            lines.push(rest.slice(0, cut));
            rest = rest.slice(cut);
          }
          line = rest;
        }
      }
      if (line) lines.push(line);
    }
    return lines.length ? lines : [''];
  };
  return {
    doc,
    regular,
    bold,
    paper,
    addPage: () => doc.addPage([paper.size[0], paper.size[1]]),
    text(page, str, x, y, { size = 10, font = regular, color = INK, align = 'left', maxWidth } = {}) {
      const safe = drawable(font, str);
      const width = align === 'left' ? 0 : font.widthOfTextAtSize(safe, size);
      page.drawText(safe, { x: align === 'right' ? x - width : align === 'center' ? x - width / 2 : x, y, size, font, color, ...(maxWidth === undefined ? {} : { maxWidth }) });
    },
    wrap,
    fit(str, width, size = 9, font = regular) {
      let out = drawable(font, str);
      while (out.length > 1 && font.widthOfTextAtSize(out, size) > width) out = `${out.slice(0, -2)}…`;
      return out;
    },
    rule(page, y, thickness = 0.5, color = RULE) {
      page.drawLine({ start: { x: paper.left, y }, end: { x: paper.right, y }, thickness, color });
    },
    save: () => doc.save(),
  };
}

/**
 * A QR code of `text` in a white square of `size` points whose lower left corner is (x, y): its
 * modules drawn as squares (sharp at any zoom, scanned from paper or a screen), error correction M,
 * inside a quiet zone of four modules.
 */
export function drawQr(page: PDFPage, text: string, x: number, y: number, size: number) {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const quiet = 4;
  const cell = size / (n + 2 * quiet);
  page.drawRectangle({ x, y, width: size, height: size, color: rgb(1, 1, 1) });
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (qr.modules.get(row, col)) page.drawRectangle({ x: x + (col + quiet) * cell, y: y + size - (row + quiet + 1) * cell, width: cell, height: cell, color: rgb(0, 0, 0) });
    }
  }
}
