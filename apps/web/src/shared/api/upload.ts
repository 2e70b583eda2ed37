import { sessionApi } from './session-api';
import type { AppDispatch } from '../store';

export class UploadError extends Error {}

function send(url: string, file: File, onProgress: (fraction: number) => void) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PATCH', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new UploadError('the connection was lost'));
    xhr.send(file);
  });
}

/**
 * The spec's file upload: PATCH the file's bytes to the URL the server gave, reporting progress.
 * A 401 (the access token expired meanwhile) renews the session once and sends again.
 * Rejects with the server's own words.
 */
export async function uploadFile(dispatch: AppDispatch, url: string, file: File, onProgress: (fraction: number) => void) {
  let res = await send(url, file, onProgress);
  if (res.status === 401) {
    await dispatch(sessionApi.endpoints.verifySession.initiate());
    res = await send(url, file, onProgress);
  }
  if (res.status < 200 || res.status >= 300) {
    const detail = (res.body as { errors?: { detail: string }[] })?.errors?.[0]?.detail ?? `HTTP ${res.status}`;
    throw new UploadError(detail);
  }
  onProgress(1);
  return res.body;
}
