// Online uploads with progress (issue 5: time sheets). fetch and redaxios report no upload progress,
// so this one call uses XMLHttpRequest — with the same base, bearer, CSRF echo and error catalogue
// (spec §8) as lib/api.ts, whose helpers it reuses. Offline-capable uploads go through lib/outbox.ts.
import { accountFor, ApiError, authorizationHeaders, ensureCsrfCookie, handleFailure, type ApiOptions } from './api';

export interface UploadOptions extends ApiOptions {
  method?: 'POST' | 'PUT' | 'PATCH';
  signal?: AbortSignal;
}

function xsrfToken(): string | null {
  const match = typeof document !== 'undefined' ? document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/) : null;
  return match ? decodeURIComponent(match[1]) : null;
}

/**
 * POSTs (by default) multipart form data to `/api{url}`; `onProgress` gets 0..1 as the body goes up.
 * Resolves with the parsed JSON answer; rejects with the ApiError the catalogue produced.
 */
export async function uploadWithProgress<T>(url: string, formData: FormData, onProgress: (fraction: number) => void, options: UploadOptions = {}): Promise<T> {
  const account = accountFor(url, options.account);
  await ensureCsrfCookie();
  const outcome = await new Promise<{ status: number; data: unknown } | { error: unknown }>((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(options.method ?? 'POST', `/api/${url.replace(/^\//, '')}`);
    xhr.withCredentials = true;
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      ...options.headers,
      ...authorizationHeaders(account),
    };
    const xsrf = xsrfToken();
    if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      let data: unknown = xhr.responseText;
      try { data = JSON.parse(xhr.responseText); } catch { /* not JSON: kept as text */ }
      resolve({ status: xhr.status, data });
    });
    xhr.addEventListener('error', () => resolve({ error: new TypeError('Network request failed') }));
    xhr.addEventListener('timeout', () => resolve({ error: new TypeError('Network request timed out') }));
    xhr.addEventListener('abort', () => resolve({ error: new DOMException('Upload aborted', 'AbortError') }));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(formData);
  });

  if ('error' in outcome) {
    if (outcome.error instanceof DOMException && outcome.error.name === 'AbortError') throw new ApiError('Upload cancelled.', null);
    throw await handleFailure(outcome.error, account, options);
  }
  if (outcome.status >= 200 && outcome.status < 300) {
    onProgress(1);
    return outcome.data as T;
  }
  // The catalogue recognises an HTTP failure by {status, data, config}, as redaxios rejects.
  throw await handleFailure({ status: outcome.status, data: outcome.data, config: {} }, account, options);
}
