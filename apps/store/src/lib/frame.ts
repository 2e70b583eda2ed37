/**
 * In a frame on another site (?embed=1), the store tells the embedding page its height whenever it
 * changes (embed.js resizes the frame; it checks the message comes from the store's origin), and
 * passes Escape on, so an overlay can close while the focus is inside the frame. The height is not
 * a secret: it is posted to any parent.
 */
export const HEIGHT_MESSAGE = 'tourdesk:height';
export const ESCAPE_MESSAGE = 'tourdesk:escape';

export function isEmbedded(search: string) {
  return new URLSearchParams(search).get('embed') === '1';
}

export function reportHeight(target: HTMLElement, parent: Window = window.parent) {
  if (parent === window) return () => undefined;
  let last = -1;
  const post = () => {
    const height = Math.ceil(target.getBoundingClientRect().height);
    if (height !== last) {
      last = height;
      parent.postMessage({ type: HEIGHT_MESSAGE, height }, '*');
    }
  };
  const observer = new ResizeObserver(post);
  observer.observe(target);
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') parent.postMessage({ type: ESCAPE_MESSAGE }, '*');
  };
  window.addEventListener('keydown', onKey);
  post();
  return () => {
    observer.disconnect();
    window.removeEventListener('keydown', onKey);
  };
}
