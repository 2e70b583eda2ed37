/**
 * embed.js: puts a store (or one offer) on an operator's own site.
 *
 *   <script src="https://{org-host}/embed.js" data-store="{slug}" [data-offer="{id}"]
 *           [data-mode="inline|button"] [data-label="Book now"] [data-lang="de"] async></script>
 *
 * The store speaks data-lang, else the language of the page around it (<html lang>), when the
 * organisation sells in it (?lang=: the server goes to that language's address, else its default).
 * This script's own three words (the button, its frame's title, Close) are kept here per language,
 * so it stays a few hundred bytes; every word of the store itself comes from its catalog.
 *
 * inline (the default): an <iframe> of the store page (or the offer's) right after the script,
 * full width, borderless, that grows and shrinks with its content: the page in the frame posts
 * {type: 'tourdesk:height', height}; only messages from the store's own origin (the origin of this
 * script's src) and from that frame are taken.
 * button: a "Book now" button in a Shadow DOM (the page's CSS cannot reach it, nor its CSS
 * the page) that opens the offer (or the store) in a full-screen modal dialog with a close button;
 * Escape closes it, also while the focus is inside the frame (the frame passes Escape on), and a
 * modal <dialog> keeps the focus within it.
 * The store keeps its cart in its own storage, never in a cookie, so blocking third-party cookies
 * breaks nothing.
 */
(() => {
  const HEIGHT = 'tourdesk:height';
  const ESCAPE = 'tourdesk:escape';
  const SLUG = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
  const ID = /^[0-9a-f-]{36}$/i;

  function scripts(): HTMLScriptElement[] {
    const current = document.currentScript as HTMLScriptElement | null;
    if (current && current.dataset.store) return [current];
    // Loaded some other way (a tag manager): every embed tag not set up yet.
    return Array.from(document.querySelectorAll<HTMLScriptElement>('script[data-store][src*="embed.js"]'));
  }

  const WORDS: Record<string, [book: string, online: string, close: string]> = {
    en: ['Book now', 'Book online', 'Close'],
    de: ['Jetzt buchen', 'Online buchen', 'Schließen'],
    fr: ['Réserver', 'Réserver en ligne', 'Fermer'],
    it: ['Prenota ora', 'Prenota online', 'Chiudi'],
    es: ['Reservar ahora', 'Reservar en línea', 'Cerrar'],
  };
  /** The language asked for (data-lang, else the page's <html lang>), as the store's addresses name it ("de-CH" is "de"). */
  function languageOf(script: HTMLScriptElement) {
    const tag = (script.dataset.lang || document.documentElement.lang || '').toLowerCase().split('-')[0] ?? '';
    return WORDS[tag] ? tag : null;
  }

  function frameUrl(origin: string, slug: string, offer: string | undefined, lang: string | null) {
    const path = offer ? `/s/${slug}/offers/${offer}` : `/s/${slug}/`;
    return `${origin}${path}?embed=1${lang ? `&lang=${lang}` : ''}`;
  }

  function setUp(script: HTMLScriptElement) {
    if (script.dataset.tourdeskReady) return;
    script.dataset.tourdeskReady = '1';
    const slug = script.dataset.store ?? '';
    const offer = script.dataset.offer && ID.test(script.dataset.offer) ? script.dataset.offer : undefined;
    if (!SLUG.test(slug)) {
      console.warn('tourdesk embed: data-store must be the store’s address, e.g. data-store="kayak"');
      return;
    }
    let origin: string;
    try {
      origin = new URL(script.src, location.href).origin;
    } catch {
      return;
    }
    const lang = languageOf(script);
    const words = WORDS[lang ?? 'en']!;
    const url = frameUrl(origin, slug, offer, lang);
    if (script.dataset.mode === 'button') button(script, origin, url, words);
    else inline(script, origin, url, words);
  }

  function inline(script: HTMLScriptElement, origin: string, url: string, words: [string, string, string]) {
    const frame = document.createElement('iframe');
    frame.src = url;
    frame.title = script.dataset.title || words[1];
    frame.setAttribute('style', 'display:block;width:100%;min-width:0;height:640px;border:0;margin:0;padding:0;overflow:hidden;background:transparent;color-scheme:normal');
    frame.setAttribute('scrolling', 'no');
    frame.setAttribute('allow', 'payment');
    script.after(frame);
    window.addEventListener('message', (event) => {
      if (event.origin !== origin || event.source !== frame.contentWindow) return;
      const data = event.data as { type?: string; height?: unknown } | null;
      if (data && data.type === HEIGHT && typeof data.height === 'number' && data.height > 0 && data.height < 100_000) {
        frame.style.height = `${Math.ceil(data.height)}px`;
      }
    });
  }

  const CSS = `
:host { all: initial; display: inline-block; }
button.open {
  all: initial; box-sizing: border-box; display: inline-flex; align-items: center; justify-content: center;
  min-height: 44px; padding: 10px 22px; border-radius: 8px; cursor: pointer;
  font: 600 16px/1.2 system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif;
  background: var(--bg, #1864ab); color: var(--fg, #fff);
}
button.open:hover { filter: brightness(0.92); }
button.open:focus-visible, button.close:focus-visible { outline: 3px solid #4dabf7; outline-offset: 2px; }
dialog {
  all: initial; box-sizing: border-box; position: fixed; inset: 0; width: 100vw; height: 100vh; height: 100dvh;
  max-width: none; max-height: none; margin: 0; padding: 0; border: 0; background: #fff; z-index: 2147483647;
}
dialog:not([open]) { display: none; }
dialog::backdrop { background: rgba(0, 0, 0, 0.5); }
dialog[open] { display: flex; flex-direction: column; }
.bar { flex: none; display: flex; justify-content: flex-end; padding: 6px 8px; background: #111827; }
iframe { display: block; flex: 1; width: 100%; min-height: 0; border: 0; }
button.close {
  all: initial; box-sizing: border-box; width: 44px; height: 44px; border-radius: 50%; display: grid; place-items: center;
  cursor: pointer; background: transparent; color: #fff; font: 400 28px/1 system-ui, Arial, sans-serif;
}
button.close:hover { background: rgba(255, 255, 255, 0.15); }
@media (min-width: 900px) {
  dialog { inset: 24px; width: auto; height: auto; border-radius: 12px; overflow: hidden; margin: auto; max-width: 1100px; }
}
@media (prefers-color-scheme: dark) { dialog { background: #12141a; } }
`;

  function button(script: HTMLScriptElement, origin: string, url: string, words: [string, string, string]) {
    const host = document.createElement('span');
    const shadow = host.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = CSS;
    const open = document.createElement('button');
    open.type = 'button';
    open.className = 'open';
    open.textContent = script.dataset.label || words[0];
    const color = script.dataset.color;
    if (color && /^#[0-9a-f]{6}$/i.test(color)) open.style.setProperty('--bg', color);
    const dialog = document.createElement('dialog');
    dialog.setAttribute('aria-label', open.textContent);
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'close';
    close.setAttribute('aria-label', words[2]);
    close.textContent = '×';
    const bar = document.createElement('div');
    bar.className = 'bar';
    bar.append(close);
    dialog.append(bar);
    shadow.append(style, open, dialog);
    script.after(host);

    let frame: HTMLIFrameElement | null = null;
    let overflow = '';
    const shut = () => {
      if (dialog.open) dialog.close();
    };
    open.addEventListener('click', () => {
      if (!frame) {
        // The frame is made on the first click: the page around it loads nothing of the store before.
        frame = document.createElement('iframe');
        frame.src = url;
        frame.title = open.textContent || words[1];
        frame.setAttribute('allow', 'payment');
        dialog.append(frame);
      }
      overflow = document.documentElement.style.overflow;
      document.documentElement.style.overflow = 'hidden';
      dialog.showModal();
      close.focus();
    });
    close.addEventListener('click', shut);
    dialog.addEventListener('close', () => {
      document.documentElement.style.overflow = overflow;
      open.focus();
    });
    // Escape while the focus is in the frame: the store passes it on.
    window.addEventListener('message', (event) => {
      if (event.origin !== origin || !frame || event.source !== frame.contentWindow) return;
      const data = event.data as { type?: string } | null;
      if (data && data.type === ESCAPE) shut();
    });
  }

  for (const s of scripts()) setUp(s);
})();
