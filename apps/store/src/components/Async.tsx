import { useContext, useEffect, useRef, useState } from 'react';
import { PreloadCtx } from '../context';
import { ApiError } from '../lib/api';
import { isPreloadedError } from '../lib/preload';
import { errorText, useT } from '../i18n';

export interface Loaded<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
  reload: () => void;
}

interface State<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
}

/** The state a preloaded answer (or error) stands for; null when there is none. */
function preloaded<T>(value: unknown): State<T> | null {
  if (value === undefined) return null;
  if (isPreloadedError(value)) return { data: null, error: new ApiError(value.$error.status, value.$error.errors), loading: false };
  return { data: value as T, error: null, loading: false };
}

/**
 * Loads with `load` whenever `deps` change; the last answer wins. With `key`, the first drawing
 * uses what the server read for it (lib/preload.ts) and asks nothing; the entry is then used up.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], key?: string): Loaded<T> {
  const preload = useContext(PreloadCtx);
  const [state, setState] = useState<State<T>>(() => preloaded<T>(key === undefined ? undefined : preload.get(key)) ?? { data: null, error: null, loading: true });
  const [tick, setTick] = useState(0);
  const fromServer = useRef(key !== undefined && preload.has(key));
  useEffect(() => {
    if (fromServer.current) {
      fromServer.current = false;
      if (key !== undefined) preload.delete(key);
      return;
    }
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    load().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error: unknown) =>
        live && setState({ data: null, error: error instanceof ApiError ? error : new ApiError(0, [{ code: 'error', detail: 'The request failed.', attr: null }]), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]); // eslint-disable-line react-hooks/exhaustive-deps
  return { ...state, reload: () => setTick((n) => n + 1) };
}

export function Spinner() {
  const t = useT();
  return (
    <p className="td-loading" role="status">
      <span className="td-spinner" aria-hidden="true" />
      {t('loading')}
    </p>
  );
}

/** An error the customer reads: `text` where the page knows better (an offer's 404), else by its code. */
export function ErrorPanel({ error, retry, text }: { error: ApiError; retry?: () => void; text?: string }) {
  const t = useT();
  return (
    <div className="td-panel td-panel--error" role="alert">
      <p>{text ?? errorText(t, error)}</p>
      {retry && error.status !== 404 && (
        <button type="button" className="td-btn td-btn--secondary" onClick={retry}>
          {t('retry')}
        </button>
      )}
    </div>
  );
}
