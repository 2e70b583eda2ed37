import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../lib/api';
import { t } from '../texts';

export interface Loaded<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
  reload: () => void;
}

/** Loads with `load` whenever `deps` change; the last answer wins. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: ApiError | null; loading: boolean }>({ data: null, error: null, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    load().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error: unknown) =>
        live && setState({ data: null, error: error instanceof ApiError ? error : new ApiError(0, [{ code: 'error', detail: t.genericError, attr: null }]), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]); // eslint-disable-line react-hooks/exhaustive-deps
  return { ...state, reload: () => setTick((n) => n + 1) };
}

export function Spinner() {
  return (
    <p class="td-loading" role="status">
      <span class="td-spinner" aria-hidden="true" />
      {t.loading}
    </p>
  );
}

export function ErrorPanel({ error, retry }: { error: ApiError; retry?: () => void }) {
  return (
    <div class="td-panel td-panel--error" role="alert">
      <p>{error.message}</p>
      {retry && error.status !== 404 && (
        <button type="button" class="td-btn td-btn--secondary" onClick={retry}>
          {t.retry}
        </button>
      )}
    </div>
  );
}
