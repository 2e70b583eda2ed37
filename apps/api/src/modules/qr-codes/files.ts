import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';

/** A QR code's files: PNG and SVG of its address, and a printable A5 flyer (PDF). */

export const qrPng = (url: string) => QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: 1024 });
export const qrSvg = (url: string) => QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });

/** The modules drawn as squares (sharp at any print size). */
function drawQr(page: PDFPage, text: string, x: number, y: number, size: number) {
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

/** Text the standard fonts can draw (WinAnsi): other characters become '?'. */
const drawable = (font: PDFFont, text: string) => [...text].map((ch) => (font.getCharacterSet().includes(ch.codePointAt(0)!) ? ch : '?')).join('');

export interface Flyer {
  organisation: string;
  title: string;
  subtitle: string | null;
  url: string;
  code: string;
}

/** One A5 page: who, what, the code (large), a call to action and the address to type. */
export async function flyerPdf(f: Flyer): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${f.title} – QR code`);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const W = 420;
  const page = pdf.addPage([W, 595]);
  const centred = (text: string, y: number, font: PDFFont, size: number, color = rgb(0.1, 0.1, 0.1)) => {
    let t = drawable(font, text);
    while (t.length > 4 && font.widthOfTextAtSize(t, size) > W - 48) t = `${t.slice(0, -2)}…`.replace(/……$/, '…');
    page.drawText(t, { x: (W - font.widthOfTextAtSize(t, size)) / 2, y, size, font, color });
  };
  centred(f.organisation, 545, regular, 12, rgb(0.35, 0.35, 0.35));
  centred(f.title, 510, bold, 22);
  if (f.subtitle) centred(f.subtitle, 486, regular, 13);
  drawQr(page, f.url, 85, 170, 250);
  centred('Scan to book online', 140, bold, 18);
  centred('Point your phone’s camera at the code.', 118, regular, 11, rgb(0.3, 0.3, 0.3));
  centred(f.url, 70, regular, 11);
  centred(`Code ${f.code}`, 52, regular, 9, rgb(0.45, 0.45, 0.45));
  return pdf.save();
}
