import './rich-text.css';
import { ActionIcon, Button, Group, Popover, TextInput, Tooltip } from '@mantine/core';
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
import DOMPurify from 'dompurify';
import Squire from 'squire-rte';
import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Rich text written in the browser (an offer's long description): paragraphs, bold, italic,
 * underline, strikethrough, two heading levels, lists, quotes and links, the formatting the server
 * keeps (apps/api/src/modules/experiences/sanitize.ts). Pasted HTML is cut down to those tags here
 * already, so what the editor shows is what will be stored.
 *
 * Squire (Fastmail's editor on contenteditable, 18 kB gzip) does the editing, which is a fraction of
 * what ProseMirror weighed (about 140 kB gzip with tiptap): the offer editor's Description step now
 * fits the same 120 kB budget as the other steps (scripts/size.mjs).
 */
export const RICH_TEXT_TAGS = ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'a', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'blockquote'];
const LINK_SCHEME = /^(https?:|mailto:)/i;

function sanitizeToFragment(html: string): DocumentFragment {
  const fragment = DOMPurify.sanitize(html, {
    ALLOWED_TAGS: RICH_TEXT_TAGS,
    ALLOWED_ATTR: ['href'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
    RETURN_DOM_FRAGMENT: true,
  });
  return document.importNode(fragment, true);
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

/** Empty when there is no text: the editor always keeps an empty paragraph for the cursor. */
function htmlOf(editor: Squire, root: HTMLElement): string {
  return root.textContent?.trim() ? editor.getHTML() : '';
}

function Control({
  label,
  active,
  disabled,
  onClick,
  children,
}: {
  label: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label} withArrow openDelay={400}>
      <ActionIcon
        variant={active ? 'light' : 'subtle'}
        color={active ? undefined : 'gray'}
        size="md"
        disabled={disabled}
        aria-label={label}
        aria-pressed={active === undefined ? undefined : active}
        // Keep the text's selection: a toolbar button must not take the focus from the editor.
        onMouseDown={(event) => event.preventDefault()}
        onClick={onClick}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

function LinkControl({ editor, active }: { editor: Squire | null; active: boolean }) {
  const [opened, setOpened] = useState(false);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const apply = () => {
    const href = /^[\w.+-]+@[\w-]+\.[\w.-]+$/.test(url.trim()) ? `mailto:${url.trim()}` : url.trim();
    if (!LINK_SCHEME.test(href)) {
      setError('A link starts with https://, http:// or mailto:.');
      return;
    }
    if (!editor) return;
    editor.focus();
    // The cursor in a link without a selection: the new address replaces the link's, over its whole text.
    const anchor = linkElementAtCursor(editor);
    if (anchor && editor.getSelection().collapsed) {
      const range = document.createRange();
      range.selectNodeContents(anchor);
      editor.setSelection(range);
    }
    editor.makeLink(href);
    setOpened(false);
  };
  return (
    <Popover opened={opened} onChange={setOpened} trapFocus position="bottom-start" withArrow shadow="md">
      <Popover.Target>
        {/* Tooltip passes the popover's ref and ARIA attributes on to the button itself. */}
        <Tooltip label="Link" withArrow openDelay={400}>
          <ActionIcon
            variant={active ? 'light' : 'subtle'}
            color={active ? undefined : 'gray'}
            size="md"
            aria-label="Link"
            aria-pressed={active}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              setUrl((editor && linkElementAtCursor(editor)?.getAttribute('href')) ?? '');
              setError(null);
              setOpened((o) => !o);
            }}
          >
            <IconLink size={16} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown>
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            label="Link address"
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
            Apply
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}

export function RichTextInput({
  value,
  onChange,
  label,
  describedBy,
  invalid,
}: {
  value: string;
  onChange: (html: string) => void;
  /** The editable box's accessible name (a textbox needs one). */
  label: string;
  describedBy?: string;
  invalid?: boolean;
}) {
  const rootRef = useRef<HTMLDivElement>(null);
  const [editor, setEditor] = useState<Squire | null>(null);
  // Bumped whenever the cursor moves or the text changes: the toolbar's pressed states are read again.
  const [, setCursorMoves] = useState(0);
  const [history, setHistory] = useState({ canUndo: false, canRedo: false });
  // What the editor last reported, so that the form handing the same text back does not reset it.
  const emitted = useRef(value);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    const root = rootRef.current!;
    const instance = new Squire(root, { blockTag: 'P', sanitizeToDOMFragment: sanitizeToFragment });
    instance.setHTML(value);
    const onInput = () => {
      emitted.current = htmlOf(instance, root);
      onChangeRef.current(emitted.current);
    };
    const onCursor = () => setCursorMoves((n) => n + 1);
    const onHistory = (event: Event) => setHistory((event as CustomEvent<{ canUndo: boolean; canRedo: boolean }>).detail);
    instance.addEventListener('input', onInput);
    for (const event of ['input', 'pathChange', 'cursor', 'select']) instance.addEventListener(event, onCursor);
    instance.addEventListener('undoStateChange', onHistory);
    setEditor(instance);
    return () => instance.destroy();
    // The first value only: later ones arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A value from outside (a reset to what was saved, or another offer) replaces the text, but not
  // while the user is typing in it.
  useEffect(() => {
    if (!editor || value === emitted.current || rootRef.current?.contains(document.activeElement)) return;
    emitted.current = value;
    editor.setHTML(value);
  }, [editor, value]);

  const formats = editor ? formatsAt(editor) : new Set<string>();
  const run = (action: (e: Squire) => void) => () => {
    if (!editor) return;
    action(editor);
    editor.focus();
  };
  const toggle = (tag: string, on: (e: Squire) => void, off: (e: Squire) => void) => run((e) => (formats.has(tag) ? off(e) : on(e)));
  const icon = { size: 16, stroke: 1.6 };

  return (
    <div className="rich-text" data-invalid={invalid || undefined}>
      <div className="rich-text-toolbar" role="toolbar" aria-label={`${label}: formatting`}>
        <Group gap={2}>
          <Control label="Bold (Ctrl+B)" active={formats.has('B')} onClick={toggle('B', (e) => e.bold(), (e) => e.removeBold())}>
            <IconBold {...icon} />
          </Control>
          <Control label="Italic (Ctrl+I)" active={formats.has('I')} onClick={toggle('I', (e) => e.italic(), (e) => e.removeItalic())}>
            <IconItalic {...icon} />
          </Control>
          <Control label="Underline (Ctrl+U)" active={formats.has('U')} onClick={toggle('U', (e) => e.underline(), (e) => e.removeUnderline())}>
            <IconUnderline {...icon} />
          </Control>
          <Control label="Strikethrough" active={formats.has('S')} onClick={toggle('S', (e) => e.strikethrough(), (e) => e.removeStrikethrough())}>
            <IconStrikethrough {...icon} />
          </Control>
        </Group>
        <Group gap={2}>
          <Control label="Heading" active={formats.has('H2')} onClick={() => editor && toggleBlockTag(editor, 'H2')}>
            <IconH2 {...icon} />
          </Control>
          <Control label="Subheading" active={formats.has('H3')} onClick={() => editor && toggleBlockTag(editor, 'H3')}>
            <IconH3 {...icon} />
          </Control>
          <Control label="Bulleted list" active={formats.has('UL')} onClick={toggle('UL', (e) => e.makeUnorderedList(), (e) => e.removeList())}>
            <IconList {...icon} />
          </Control>
          <Control label="Numbered list" active={formats.has('OL')} onClick={toggle('OL', (e) => e.makeOrderedList(), (e) => e.removeList())}>
            <IconListNumbers {...icon} />
          </Control>
          <Control label="Quote" active={formats.has('BLOCKQUOTE')} onClick={toggle('BLOCKQUOTE', (e) => e.increaseQuoteLevel(), (e) => e.decreaseQuoteLevel())}>
            <IconBlockquote {...icon} />
          </Control>
        </Group>
        <Group gap={2}>
          <LinkControl editor={editor} active={formats.has('A')} />
          <Control label="Remove link" onClick={run((e) => e.removeLink())}>
            <IconUnlink {...icon} />
          </Control>
        </Group>
        <Group gap={2}>
          <Control label="Undo (Ctrl+Z)" disabled={!history.canUndo} onClick={run((e) => e.undo())}>
            <IconArrowBackUp {...icon} />
          </Control>
          <Control label="Redo (Ctrl+Shift+Z)" disabled={!history.canRedo} onClick={run((e) => e.redo())}>
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
        aria-invalid={invalid || undefined}
      />
    </div>
  );
}
