import './rich-text.css';
import { ActionIcon, Button, Group, Input, Popover, TextInput, Tooltip } from '@mantine/core';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconBlockquote,
  IconBold,
  IconH2,
  IconH3,
  IconItalic,
  IconLink,
  IconList,
  IconListNumbers,
  IconStrikethrough,
  IconUnderline,
  IconUnlink,
} from '@tabler/icons-react';
import { RICH_TEXT_TAGS } from '@tourdesk/contracts';
import DOMPurify from 'dompurify';
import Squire from 'squire-rte';
import { forwardRef, useEffect, useId, useImperativeHandle, useRef, useState, type ComponentPropsWithoutRef, type ReactNode, type Ref } from 'react';
import { useRichTextT } from './rich-text-texts';

/**
 * Rich text written in the browser (an offer's long description): paragraphs, bold, italic,
 * underline, strikethrough, two heading levels, lists, quotes and links, the formatting the server
 * keeps (`RICH_TEXT_TAGS` in @tourdesk/contracts, which the server's sanitizer allows). Pasted HTML is brought to those tags here
 * already (`normalisePasted`, then DOMPurify), so what the editor shows is what will be stored.
 *
 * Squire (Fastmail's editor on contenteditable, 18 kB gzip) does the editing, which is a fraction of
 * what ProseMirror weighed (about 140 kB gzip with tiptap): the offer editor's Description step fits
 * the same 120 kB budget as the other steps (scripts/size.mjs).
 */
const LINK_SCHEME = /^(https?:|mailto:)/i;
// The server opens links in a new tab; the editor writes them so, and a saved text reads the same.
const LINK_ATTRIBUTES = { target: '_blank', rel: 'noopener noreferrer nofollow' };
const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = IS_MAC ? '⌘' : 'Ctrl+';

const ANY_BLOCK = 'p, div, ul, ol, li, dl, h1, h2, h3, h4, h5, h6, blockquote, table, section, article, header, footer, aside, main, address, pre, figure';
const OTHER_BLOCKS = 'div, section, article, header, footer, aside, main, address, pre, figure, figcaption, td, th, caption, dt, dd, h1, h5, h6';

function unwrap(element: Element) {
  element.replaceWith(...element.childNodes);
}

/**
 * HTML from a paste (a word processor, Google Docs, an e-mail, a web page) in the shapes the server
 * keeps, before DOMPurify removes every other tag and attribute: bold, italic and lines written as
 * styles become tags; lines in <div>s and table cells become paragraphs (else their words would run
 * together); h1 becomes a heading, h5 and h6 the smallest kept one. Google Docs wraps a whole clip in
 * <b style="font-weight:normal">, which is not bold. A template's content is inert: nothing in it runs
 * or loads.
 */
export function normalisePasted(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  const root = template.content;
  for (const element of [...root.querySelectorAll<HTMLElement>('[style]')]) {
    const { fontWeight, fontStyle } = element.style;
    const decoration = `${element.style.textDecorationLine} ${element.style.textDecoration}`;
    if (element.nodeName === 'B' && /^(normal|[1-5]00)$/.test(fontWeight)) {
      unwrap(element);
      continue;
    }
    const wrap = (tag: string) => {
      const inner = document.createElement(tag);
      inner.append(...element.childNodes);
      element.append(inner);
    };
    if (element.nodeName !== 'B' && element.nodeName !== 'STRONG' && /^(bold|bolder|[6-9]00)$/.test(fontWeight)) wrap('b');
    if (fontStyle === 'italic') wrap('i');
    if (decoration.includes('underline')) wrap('u');
    if (decoration.includes('line-through')) wrap('s');
  }
  for (const element of [...root.querySelectorAll('table, thead, tbody, tfoot, tr, dl')]) unwrap(element);
  // Deepest first, so that a block holding blocks is judged on what they have become.
  for (const element of [...root.querySelectorAll(OTHER_BLOCKS)].reverse()) {
    if (element.querySelector(ANY_BLOCK)) {
      unwrap(element);
      continue;
    }
    const tag = element.nodeName === 'H1' ? 'h2' : /^H[56]$/.test(element.nodeName) ? 'h4' : 'p';
    const replacement = document.createElement(tag);
    replacement.append(...element.childNodes);
    element.replaceWith(replacement);
  }
  return template.innerHTML;
}

function sanitizeToFragment(html: string): DocumentFragment {
  const fragment = DOMPurify.sanitize(normalisePasted(html), {
    ALLOWED_TAGS: RICH_TEXT_TAGS,
    ALLOWED_ATTR: ['href', 'target', 'rel'],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
    RETURN_DOM_FRAGMENT: true,
  });
  return fragment ? document.importNode(fragment, true) : document.createDocumentFragment();
}

/** The text's blocks under the selection become `tag`, or paragraphs again when all of them already are. */
export function toggleBlockTag(editor: Squire, tag: 'H2' | 'H3') {
  let all = true;
  editor.forEachBlock((block) => {
    if (block.nodeName !== tag) all = false;
  }, false);
  const target = all ? 'P' : tag;
  editor.modifyBlocks((fragment) => {
    const blocks = [...(fragment as DocumentFragment).querySelectorAll('p, div, h2, h3, h4')].filter((b) => !b.querySelector('p, div, h2, h3, h4'));
    for (const block of blocks) {
      if (block.nodeName === target) continue;
      const replacement = document.createElement(target);
      replacement.append(...block.childNodes);
      block.replaceWith(replacement);
    }
    return fragment;
  });
  editor.focus();
}

/** The formats at the cursor or over the whole selection: inline ones, lists and quotes, and the block's kind. */
export function formatsAt(editor: Squire): Set<string> {
  const active = new Set<string>();
  for (const tag of ['B', 'I', 'U', 'S', 'A', 'UL', 'OL', 'BLOCKQUOTE']) if (editor.hasFormat(tag)) active.add(tag);
  const kinds = new Set<string>();
  editor.forEachBlock((block) => {
    kinds.add(block.nodeName);
  }, false);
  if (kinds.size === 1) active.add([...kinds][0]!);
  return active;
}

function linkElementAtCursor(editor: Squire): HTMLAnchorElement | null {
  const node = editor.getSelection().startContainer;
  const element = node instanceof Element ? node : node.parentElement;
  return element?.closest('a') ?? null;
}

/**
 * The editor's text as it will be stored, for comparing: no empty formatting left by a button
 * pressed and not typed in (Squire holds the cursor in it with a zero-width space), '' with no text.
 */
function textOf(editor: Squire, root: HTMLElement): string {
  if (!root.textContent?.replace(/\u200B/g, '').trim()) return '';
  let html = editor.getHTML();
  for (let before = ''; before !== html; ) {
    before = html;
    html = html.replace(/<(b|i|u|s|strong|em)>(<br>)?<\/\1>/g, '$2');
  }
  return html;
}

/** A toolbar button: pressed or not, and never taking the focus (and the selection) from the text. */
const ToolbarButton = forwardRef<HTMLButtonElement, { active?: boolean } & ComponentPropsWithoutRef<'button'>>(function ToolbarButton({ active, ...props }, ref) {
  return (
    <ActionIcon
      ref={ref}
      variant={active ? 'light' : 'subtle'}
      color={active ? undefined : 'gray'}
      size="md"
      aria-pressed={active}
      onMouseDown={(event) => event.preventDefault()}
      {...props}
    />
  );
});

function Control({
  label,
  shortcut,
  active,
  disabled,
  onClick,
  children,
}: {
  label: string;
  /** The key, in Playwright's and ARIA's spelling (aria-keyshortcuts), without the modifier. */
  shortcut?: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip label={shortcut ? `${label} (${MOD}${shortcut.replace('Shift+', '⇧')})` : label} withArrow openDelay={400}>
      <ToolbarButton
        active={active}
        disabled={disabled}
        aria-label={label}
        aria-keyshortcuts={shortcut ? `${IS_MAC ? 'Meta' : 'Control'}+${shortcut}` : undefined}
        onClick={onClick}
      >
        {children}
      </ToolbarButton>
    </Tooltip>
  );
}

function LinkControl({ editor, active }: { editor: Squire | null; active: boolean }) {
  const [opened, setOpened] = useState(false);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const t = useRichTextT();
  const apply = () => {
    const href = /^[\w.+-]+@[\w-]+\.[\w.-]+$/.test(url.trim()) ? `mailto:${url.trim()}` : url.trim();
    if (!LINK_SCHEME.test(href)) {
      setError(t('rich.linkInvalid'));
      return;
    }
    if (!editor) return;
    setOpened(false);
    editor.focus();
    // The cursor in a link without a selection: the new address replaces the link's, over its whole text.
    const anchor = linkElementAtCursor(editor);
    if (anchor && editor.getSelection().collapsed) {
      const range = document.createRange();
      range.selectNodeContents(anchor);
      editor.setSelection(range);
    }
    editor.makeLink(href);
  };
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      // Escape or a click outside: back to the text, where the cursor was.
      onClose={() => editor?.focus()}
      trapFocus
      position="bottom-start"
      withArrow
      shadow="md"
    >
      <Tooltip label={t('rich.link')} withArrow openDelay={400}>
        {/* The popover's target is the button itself: its aria-expanded and id land there. */}
        <Popover.Target>
          <ToolbarButton
            active={active}
            aria-label={t('rich.link')}
            onClick={() => {
              setUrl((editor && linkElementAtCursor(editor)?.getAttribute('href')) ?? '');
              setError(null);
              setOpened((o) => !o);
            }}
          >
            <IconLink size={16} stroke={1.6} />
          </ToolbarButton>
        </Popover.Target>
      </Tooltip>
      <Popover.Dropdown>
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            label={t('rich.linkAddress')}
            placeholder="https://"
            size="xs"
            value={url}
            error={error}
            onChange={(e) => setUrl(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                apply();
              }
            }}
            data-autofocus
          />
          <Button size="xs" mt={22} onClick={apply}>
            {t('rich.apply')}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * A labelled rich-text field for a react-hook-form Controller: `value` and `onChange` carry the
 * HTML ('' when empty), `onBlur` marks it touched, and `inputRef` (the Controller's `field.ref`) lets
 * the form put the cursor in it when it has an error.
 */
export function RichTextInput({
  value,
  onChange,
  onBlur,
  inputRef,
  label,
  description,
  error,
}: {
  value: string;
  onChange: (html: string) => void;
  onBlur?: () => void;
  inputRef?: Ref<{ focus: () => void }>;
  label: string;
  description?: ReactNode;
  error?: ReactNode;
}) {
  const id = useId();
  const t = useRichTextT();
  const rootRef = useRef<HTMLDivElement>(null);
  const [editor, setEditor] = useState<Squire | null>(null);
  // Bumped whenever the cursor moves or the text changes: the toolbar's pressed states are read again.
  const [, setCursorMoves] = useState(0);
  const [history, setHistory] = useState({ canUndo: false, canRedo: false });
  // The value last handed in from outside and how the editor spells it: the editor's text back in
  // that spelling is reported as that value, so undoing every edit leaves the form as it was.
  const baseline = useRef({ value, text: '' });
  // What the editor last reported, and everything it reported since the text was last set.
  const emitted = useRef(value);
  const written = useRef(new Set<string>());
  const handlers = useRef({ onChange, onBlur });
  useEffect(() => {
    handlers.current = { onChange, onBlur };
  });

  const load = (instance: Squire, html: string) => {
    instance.setHTML(html);
    baseline.current = { value: html, text: textOf(instance, rootRef.current!) };
    emitted.current = html;
    written.current.clear();
    setHistory({ canUndo: false, canRedo: false });
  };

  useEffect(() => {
    const root = rootRef.current!;
    const instance = new Squire(root, { blockTag: 'P', sanitizeToDOMFragment: sanitizeToFragment, tagAttributes: { a: LINK_ATTRIBUTES } });
    // Squire's own shortcuts for formats the server does not keep (code, subscript, superscript).
    const ctrl = IS_MAC ? 'Meta-' : 'Ctrl-';
    for (const key of ['d', 'Shift-5', 'Shift-6']) instance.setKeyHandler(`${ctrl}${key}`, () => undefined);
    load(instance, value);
    const onInput = () => {
      const text = textOf(instance, root);
      emitted.current = text === baseline.current.text ? baseline.current.value : text;
      written.current.add(emitted.current);
      handlers.current.onChange(emitted.current);
    };
    const onCursor = () => setCursorMoves((n) => n + 1);
    const onHistory = (event: Event) => setHistory((event as CustomEvent<{ canUndo: boolean; canRedo: boolean }>).detail);
    const onEditorBlur = () => handlers.current.onBlur?.();
    instance.addEventListener('input', onInput);
    for (const event of ['input', 'pathChange', 'cursor', 'select']) instance.addEventListener(event, onCursor);
    instance.addEventListener('undoStateChange', onHistory);
    instance.addEventListener('blur', onEditorBlur);
    setEditor(instance);
    return () => instance.destroy();
    // The first value only: later ones arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A value from outside. While the cursor is in the text it is never replaced: a value this editor
  // wrote before (the form reset to what a save sent, while more was typed) is answered with the
  // text as it is now, so the form holds it and counts it unsaved; any other (the saved text coming
  // back in the server's spelling) becomes the baseline. Otherwise the text is replaced.
  useEffect(() => {
    if (!editor || value === emitted.current) return;
    if (rootRef.current?.contains(document.activeElement)) {
      if (written.current.has(value)) handlers.current.onChange(emitted.current);
      else {
        baseline.current = { value, text: textOf(editor, rootRef.current) };
        emitted.current = value;
      }
      return;
    }
    load(editor, value);
  }, [editor, value]);

  useImperativeHandle(inputRef, () => ({ focus: () => editor?.focus() }), [editor]);

  const formats = editor ? formatsAt(editor) : new Set<string>();
  const run = (action: (e: Squire) => void) => () => {
    if (!editor) return;
    action(editor);
    editor.focus();
  };
  const toggle = (tag: string, on: (e: Squire) => void, off: (e: Squire) => void) => run((e) => (formats.has(tag) ? off(e) : on(e)));
  const icon = { size: 16, stroke: 1.6 };
  const describedBy = [description && `${id}-description`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;

  return (
    <Input.Wrapper
      id={id}
      label={label}
      description={description}
      error={error}
      // The label names a box that is not a form control: a click on it puts the cursor in the text.
      labelElement="div"
      labelProps={{ onClick: () => editor?.focus() }}
    >
      <div className="rich-text" data-invalid={error ? true : undefined}>
        <div className="rich-text-toolbar" role="toolbar" aria-label={t('rich.toolbar', { label })}>
          <Group gap={2}>
            <Control label={t('rich.bold')} shortcut="B" active={formats.has('B')} onClick={toggle('B', (e) => e.bold(), (e) => e.removeBold())}>
              <IconBold {...icon} />
            </Control>
            <Control label={t('rich.italic')} shortcut="I" active={formats.has('I')} onClick={toggle('I', (e) => e.italic(), (e) => e.removeItalic())}>
              <IconItalic {...icon} />
            </Control>
            <Control label={t('rich.underline')} shortcut="U" active={formats.has('U')} onClick={toggle('U', (e) => e.underline(), (e) => e.removeUnderline())}>
              <IconUnderline {...icon} />
            </Control>
            <Control label={t('rich.strikethrough')} shortcut="Shift+7" active={formats.has('S')} onClick={toggle('S', (e) => e.strikethrough(), (e) => e.removeStrikethrough())}>
              <IconStrikethrough {...icon} />
            </Control>
          </Group>
          <Group gap={2}>
            <Control label={t('rich.heading')} active={formats.has('H2')} onClick={() => editor && toggleBlockTag(editor, 'H2')}>
              <IconH2 {...icon} />
            </Control>
            <Control label={t('rich.subheading')} active={formats.has('H3')} onClick={() => editor && toggleBlockTag(editor, 'H3')}>
              <IconH3 {...icon} />
            </Control>
            <Control label={t('rich.bulletedList')} shortcut="Shift+8" active={formats.has('UL')} onClick={toggle('UL', (e) => e.makeUnorderedList(), (e) => e.removeList())}>
              <IconList {...icon} />
            </Control>
            <Control label={t('rich.numberedList')} shortcut="Shift+9" active={formats.has('OL')} onClick={toggle('OL', (e) => e.makeOrderedList(), (e) => e.removeList())}>
              <IconListNumbers {...icon} />
            </Control>
            <Control label={t('rich.quote')} shortcut="]" active={formats.has('BLOCKQUOTE')} onClick={toggle('BLOCKQUOTE', (e) => e.increaseQuoteLevel(), (e) => e.decreaseQuoteLevel())}>
              <IconBlockquote {...icon} />
            </Control>
          </Group>
          <Group gap={2}>
            <LinkControl editor={editor} active={formats.has('A')} />
            <Control label={t('rich.removeLink')} onClick={run((e) => e.removeLink())}>
              <IconUnlink {...icon} />
            </Control>
          </Group>
          <Group gap={2}>
            <Control label={t('rich.undo')} shortcut="Z" disabled={!history.canUndo} onClick={run((e) => e.undo())}>
              <IconArrowBackUp {...icon} />
            </Control>
            <Control label={t('rich.redo')} shortcut="Shift+Z" disabled={!history.canRedo} onClick={run((e) => e.redo())}>
              <IconArrowForwardUp {...icon} />
            </Control>
          </Group>
        </div>
        <div
          ref={rootRef}
          className="rich-text-content"
          role="textbox"
          aria-multiline="true"
          aria-label={label}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
        />
      </div>
    </Input.Wrapper>
  );
}
