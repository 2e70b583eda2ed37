import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render';
import { normalisePasted, RichTextInput } from './RichTextInput';

function Harness({ initial, onChange }: { initial: string; onChange: (html: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <RichTextInput
        label="Long description"
        value={value}
        onChange={(html) => {
          setValue(html);
          onChange(html);
        }}
      />
      <button type="button" onClick={() => setValue('<p>Saved elsewhere</p>')}>
        Reset
      </button>
    </>
  );
}

const box = () => screen.getByRole('textbox', { name: 'Long description' });

describe('RichTextInput', () => {
  it('shows the stored text without reporting a change, so an untouched step is not dirty', async () => {
    const onChange = vi.fn();
    renderWithApp(<Harness initial="<p>Hello <strong>lake</strong></p><ul><li>Swim</li></ul>" onChange={onChange} />);
    await waitFor(() => expect(box()).toHaveTextContent('Hello lake'));
    expect(box().querySelector('b, strong')).toHaveTextContent('lake');
    expect(box().querySelector('ul li')).toHaveTextContent('Swim');
    await new Promise((r) => setTimeout(r, 20));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('keeps only the formatting the server stores: scripts, images and handlers never reach the form', async () => {
    const onChange = vi.fn();
    renderWithApp(<Harness initial={'<p onclick="x()">Hi <a href="javascript:alert(1)">there</a></p><script>alert(1)</script><img src="x" onerror="alert(1)">'} onChange={onChange} />);
    await waitFor(() => expect(box()).toHaveTextContent('Hi there'));
    expect(box().querySelector('script, img, [onclick], [onerror]')).toBeNull();
    expect(box().querySelector('a')?.getAttribute('href') ?? null).toBeNull();
  });

  it('reports what is typed as HTML, and an emptied box as an empty text', async () => {
    const onChange = vi.fn();
    renderWithApp(<Harness initial="<p>Start</p>" onChange={onChange} />);
    await waitFor(() => expect(box()).toHaveTextContent('Start'));
    const text = box().querySelector('p')!.firstChild as Text;
    act(() => text.appendData(' here'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(expect.stringMatching(/^<p>Start here(<br>)?<\/p>$/)));
    act(() => text.replaceData(0, text.length, ''));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(''));
  });

  // The pressed state and turning it back are seen in a real browser (e2e/experiences.spec.ts): jsdom
  // leaves the selection at the box's start once the block is replaced.
  it('turns the paragraph at the cursor into a heading', async () => {
    const onChange = vi.fn();
    renderWithApp(<Harness initial="<p>Title line</p><p>Body</p>" onChange={onChange} />);
    await waitFor(() => expect(box()).toHaveTextContent('Title line'));
    const heading = screen.getByRole('button', { name: 'Heading' });
    await userEvent.click(heading);
    await waitFor(() => expect(box().querySelector('h2')).toHaveTextContent('Title line'));
    expect(onChange).toHaveBeenLastCalledWith(expect.stringContaining('<h2>Title line'));
    expect(box().querySelectorAll('p')).toHaveLength(1);
  });

  it('takes a new value from outside (the saved text after a reset) unless it is the one it reported', async () => {
    const onChange = vi.fn();
    renderWithApp(<Harness initial="<p>Draft</p>" onChange={onChange} />);
    await waitFor(() => expect(box()).toHaveTextContent('Draft'));
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(box()).toHaveTextContent('Saved elsewhere'));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('reports the text it was given when every edit is undone, though it spells it its own way', async () => {
    const onChange = vi.fn();
    const saved = '<p>Hello <strong>lake</strong> <a href="https://x.example" target="_blank" rel="noopener noreferrer nofollow">map</a></p>';
    renderWithApp(<Harness initial={saved} onChange={onChange} />);
    await waitFor(() => expect(box()).toHaveTextContent('Hello lake map'));
    const text = box().querySelector('p')!.firstChild as Text;
    act(() => text.appendData('!'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(expect.stringContaining('<b>lake</b>')));
    act(() => text.deleteData(text.length - 1, 1));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(saved));
  });

  it('names its link button as the popover it opens, and the popover as the link form', async () => {
    renderWithApp(<Harness initial="<p>Text</p>" onChange={vi.fn()} />);
    const link = screen.getByRole('button', { name: 'Link' });
    expect(link).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(link);
    expect(link).toHaveAttribute('aria-expanded', 'true');
    const dialog = (await screen.findByLabelText('Link address')).closest('[role="dialog"]');
    expect(dialog).toHaveAttribute('aria-labelledby', link.id);
    expect(link).toHaveAttribute('aria-controls', dialog!.id);
  });
});

describe('normalisePasted', () => {
  const squash = (html: string) => normalisePasted(html).replace(/\s+/g, ' ');

  it('keeps the lines of <div>s and table cells as paragraphs, and unwraps blocks that hold blocks', () => {
    expect(squash('<div>Line 1</div><div>Line 2</div>')).toBe('<p>Line 1</p><p>Line 2</p>');
    expect(squash('<div><div>A</div><p>B</p></div>')).toBe('<p>A</p><p>B</p>');
    expect(squash('<table><thead><tr><th>Day</th></tr></thead><tbody><tr><td>Mon</td></tr></tbody></table>')).toBe('<p>Day</p><p>Mon</p>');
  });

  it('turns styled bold, italic and lines into tags, and Google Docs’ not-bold wrapper into nothing', () => {
    expect(squash('<b style="font-weight:normal" id="docs-internal-guid-1"><span style="font-weight:700">Big</span> <span style="font-style:italic">slanted</span></b>')).toBe(
      '<span style="font-weight:700"><b>Big</b></span> <span style="font-style:italic"><i>slanted</i></span>',
    );
    expect(squash('<span style="text-decoration: underline line-through">x</span>')).toBe('<span style="text-decoration: underline line-through"><s><u>x</u></s></span>');
  });

  it('keeps headings within the levels the server stores', () => {
    expect(squash('<h1>Top</h1><h5>Small</h5><h3>Mid</h3>')).toBe('<h2>Top</h2><h4>Small</h4><h3>Mid</h3>');
  });
});
