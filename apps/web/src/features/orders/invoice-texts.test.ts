import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { documentDate, loadInvoiceTexts, useInvoiceT } from './invoice-texts';

/** An issued document's words on screen come from the customer catalogs its PDF is drawn from, in its own language. */
describe('loadInvoiceTexts', () => {
  it('speaks the document’s language, with its locale’s dates', async () => {
    const de = await loadInvoiceTexts('de');
    expect(de('invoice.title', { kind: 'invoice', number: 'INV-2026-00001' })).toBe('Rechnung INV-2026-00001');
    expect(de('invoice.title', { kind: 'credit_note', number: 'CN-2026-00001' })).toBe('Stornorechnung CN-2026-00001');
    expect(de('invoice.balanceDue')).toBe('Offener Betrag');
    expect(documentDate(de, '2026-11-27')).toBe('27. November 2026');
    const fr = await loadInvoiceTexts('fr');
    expect(fr('invoice.billTo')).toBe('Facturé à');
  });

  it('is English for English and for a value that is no language', async () => {
    const en = await loadInvoiceTexts('en');
    expect(en('invoice.title', { kind: 'invoice', number: 'INV-1' })).toBe('Invoice INV-1');
    expect(documentDate(en, '2026-11-27')).toBe('27 November 2026');
    expect((await loadInvoiceTexts('xx')).language).toBe('en');
  });
});

describe('useInvoiceT', () => {
  it('gives English at once, another language once its catalog is loaded', async () => {
    expect(renderHook(() => useInvoiceT('en')).result.current?.('invoice.billTo')).toBe('Bill to');
    const { result } = renderHook(() => useInvoiceT('it'));
    await waitFor(() => expect(result.current?.language).toBe('it'));
    expect(result.current!('invoice.title', { kind: 'invoice', number: 'INV-1' })).toBe('Fattura INV-1');
  });
});
