import type { ApiErrorBody } from './messages.ts';

/**
 * What the service's browser scripts share: the service's origin, errors as the API gives them,
 * checked messages from the service's frames, API calls with the public key, and a dialog holding
 * a frame of the service (3-D Secure challenges; hosted pages later).
 */

/** Where this script was loaded from: the service every frame and API call goes to. */
export const serviceOrigin = (() => {
  const script = document.currentScript as HTMLScriptElement | null;
  return new URL(script?.src ?? location.href).origin;
})();

/** Rejections carry the API's `type`, `code` and `message`. */
export class Shift4Error extends Error {
  readonly type: string;
  readonly code: string | undefined;
  constructor(body: ApiErrorBody) {
    super(body.message);
    this.name = 'Shift4Error';
    this.type = body.type;
    this.code = body.code;
  }
}

export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Messages from the service's frames, checked for origin and sender before anything is read. */
export function onServiceMessage<T extends { source: string }>(
  source: T['source'],
  from: () => Window | null,
  handler: (message: T, sender: MessageEventSource | null) => void,
): () => void {
  const listener = (event: MessageEvent) => {
    if (event.origin !== serviceOrigin) return;
    const sender = from();
    if (sender !== null && event.source !== sender) return;
    const data = event.data as T | null;
    if (typeof data !== 'object' || data === null || data.source !== source) return;
    handler(data, event.source);
  };
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}

export async function callApi<T>(publicKey: string, method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
  const response = await fetch(new URL(path, serviceOrigin), {
    method,
    headers: {
      authorization: `Basic ${btoa(`${publicKey}:`)}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).catch(() => {
    throw new Shift4Error({ type: 'gateway_error', message: 'The payment service could not be reached.' });
  });
  const answer = (await response.json().catch(() => null)) as (T & { error?: ApiErrorBody }) | null;
  if (!answer) throw new Shift4Error({ type: 'gateway_error', message: 'Unexpected answer from the payment service.' });
  if (!response.ok) throw new Shift4Error(answer.error ?? { type: 'gateway_error', message: response.statusText });
  return answer;
}

/** A dialog over the page holding a frame of the service; closed by the caller. */
export function openOverlay(url: URL, label: string): { frame: HTMLIFrameElement; close(): void } {
  const overlay = document.createElement('div');
  overlay.setAttribute('role', 'dialog');
  overlay.setAttribute('aria-modal', 'true');
  overlay.setAttribute('aria-label', label);
  overlay.dataset.shift4Overlay = '';
  overlay.style.cssText =
    'position:fixed;inset:0;z-index:2147483647;background:rgba(15,23,42,.55);display:flex;align-items:center;justify-content:center;padding:12px';
  const frame = document.createElement('iframe');
  frame.src = url.toString();
  frame.title = label;
  frame.style.cssText =
    'border:0;border-radius:10px;background:#fff;width:420px;max-width:100%;height:560px;max-height:100%;box-shadow:0 12px 40px rgba(0,0,0,.35)';
  overlay.append(frame);
  document.body.append(overlay);
  const previouslyFocused = document.activeElement as HTMLElement | null;
  frame.addEventListener('load', () => frame.focus(), { once: true });
  return {
    frame,
    close() {
      overlay.remove();
      previouslyFocused?.focus?.();
    },
  };
}
