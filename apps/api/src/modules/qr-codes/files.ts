import QRCode from 'qrcode';
import { createPdf, drawQr, grey, PAPER } from '../../lib/pdf';

/** A QR code's files: PNG and SVG of its address, and a printable A5 flyer (PDF). */

export const qrPng = (url: string) => QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: 1024 });
export const qrSvg = (url: string) => QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });

export interface Flyer {
  organisation: string;
  title: string;
  subtitle: string | null;
  url: string;
  code: string;
}

/** One A5 page: who, what, the code (large), a call to action and the address to type. */
export async function flyerPdf(f: Flyer): Promise<Uint8Array> {
  const pdf = await createPdf(PAPER.A5, { title: `${f.title} – QR code` });
  const { regular, bold } = pdf;
  const W = pdf.paper.size[0];
  const page = pdf.addPage();
  const centred = (text: string, y: number, font: typeof regular, size: number, color = grey(0.1)) => pdf.text(page, pdf.fit(text, W - 48, size, font), W / 2, y, { size, font, color, align: 'center' });
  centred(f.organisation, 545, regular, 12, grey(0.35));
  centred(f.title, 510, bold, 22);
  if (f.subtitle) centred(f.subtitle, 486, regular, 13);
  drawQr(page, f.url, (W - 250) / 2, 170, 250);
  centred('Scan to book online', 140, bold, 18);
  centred('Point your phone’s camera at the code.', 118, regular, 11, grey(0.3));
  centred(f.url, 70, regular, 11);
  centred(`Code ${f.code}`, 52, regular, 9, grey(0.45));
  return pdf.save();
}
