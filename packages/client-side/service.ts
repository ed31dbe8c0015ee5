import type { ApiErrorBody } from './messages.ts';

/**
 * What the service's browser scripts share: the service's origin, errors as the API gives them,
 * checked messages from the service's frames, API calls with the public key, and a dialog holding
 * a frame of the service (3-D Secure challenges, the hosted checkout).
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
  readonly param: string | undefined;
  constructor(body: ApiErrorBody) {
    super(body.message);
    this.name = 'Shift4Error';
    this.type = body.type;
    this.code = body.code;
    this.param = body.param;
  }
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

export async function callApi<T>(
  publicKey: string,
  method: 'GET' | 'POST',
  path: string,
  body?: object,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(new URL(path, serviceOrigin), {
    method,
    headers: {
      authorization: `Basic ${btoa(`${publicKey}:`)}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
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

export interface OverlayOptions {
  /**
   * When given, the payer may leave: a close button and Escape call it (the caller then closes the
   * overlay). Without it neither is offered.
   */
  onDismiss?: () => void;
  /** Label of the close button (its accessible name). */
  closeLabel?: string;
  /** The close button above the frame's corner rather than on it (for pages with content there). */
  closeAbove?: boolean;
  /** Starting height of the frame, in CSS pixels; `resize()` changes it. */
  height?: number;
}

export interface Overlay {
  frame: HTMLIFrameElement;
  /** Fits the frame to its content's height, within the window. */
  resize(height: number): void;
  /**
   * Hides the close button and ignores Escape while false: a dialog of the framed page (the 3-D
   * Secure challenge inside checkout) has its own way out meanwhile.
   */
  setDismissible(dismissible: boolean): void;
  /** Names the dialog (and its frame) and its close button anew: the framed page's own words. */
  relabel(label: string, closeLabel?: string): void;
  close(): void;
}

/**
 * The element the payer last focused on this page. A button that disables itself while it works
 * (a pay button) loses the focus before a dialog opens; the dialog gives the focus back near it.
 */
let lastFocused: HTMLElement | null = null;
document.addEventListener(
  'focusin',
  (event) => {
    if (event.target instanceof HTMLElement) lastFocused = event.target;
  },
  true,
);

const FOCUSABLE = 'a[href], button, input, select, textarea, iframe, [tabindex]:not([tabindex="-1"])';
const canFocus = (element: HTMLElement): boolean =>
  !(element as HTMLButtonElement).disabled &&
  element.getClientRects().length > 0 &&
  element.closest('[hidden], [inert]') === null;

/** Focus back to `element`, or, when it was disabled or hidden meanwhile, to the first field of its form. */
function focusBack(element: HTMLElement | null): void {
  if (!element?.isConnected || element === document.body) return;
  if (canFocus(element)) return element.focus();
  const form = element.closest('form');
  const first = form ? [...form.querySelectorAll<HTMLElement>(FOCUSABLE)].find(canFocus) : undefined;
  first?.focus();
}

const OVERLAY_STYLE =
  'position:fixed;inset:0;z-index:2147483647;background:rgba(15,23,42,.55);display:flex;align-items:center;justify-content:center;padding:12px';
const PANEL_STYLE = 'position:relative;width:420px;max-width:100%';
const FRAME_STYLE =
  'border:0;border-radius:10px;background:#fff;width:100%;max-height:calc(100vh - 24px);box-shadow:0 12px 40px rgba(0,0,0,.35);display:block';
// Complete, so that the merchant's own button styles (margins, padding) do not move it.
const CLOSE_STYLE =
  'position:absolute;top:8px;right:8px;box-sizing:border-box;margin:0;padding:0;min-width:0;width:36px;height:36px;border:0;border-radius:50%;background:#f1f5f9;color:#0f172a;font:600 22px/36px system-ui,sans-serif;text-align:center;box-shadow:none;cursor:pointer;z-index:1';
/** Room above the frame for a close button there. */
const CLOSE_ABOVE_ROOM = 44;

/**
 * A dialog over the page holding a frame of the service: `role="dialog"`, focus moved into the
 * frame and given back to where it was on close (or to the first field of that element's form
 * when it was disabled meanwhile), Tab kept inside the dialog, and (with `onDismiss`) a close
 * button and Escape. Closed by the caller.
 */
export function openOverlay(url: URL, label: string, options: OverlayOptions = {}): Overlay {
  const active = document.activeElement as HTMLElement | null;
  const previouslyFocused = active && active !== document.body ? active : lastFocused;
  const overlay = document.createElement('div');
  overlay.setAttribute('role', 'dialog');
  overlay.setAttribute('aria-modal', 'true');
  overlay.setAttribute('aria-label', label);
  overlay.dataset.shift4Overlay = '';
  overlay.style.cssText = OVERLAY_STYLE;
  const panel = document.createElement('div');
  panel.style.cssText = PANEL_STYLE;
  const frame = document.createElement('iframe');
  frame.src = url.toString();
  frame.title = label;
  frame.style.cssText = FRAME_STYLE;
  frame.style.height = `${options.height ?? 560}px`;

  // Focus sentinels: Tab past the last element (or Shift+Tab before the first) stays in the dialog.
  const sentinel = () => {
    const element = document.createElement('span');
    element.tabIndex = 0;
    element.style.cssText = 'position:fixed;width:1px;height:1px;overflow:hidden;opacity:0';
    return element;
  };
  const before = sentinel();
  const after = sentinel();
  const first = (): HTMLElement => (closeButton && !closeButton.hidden ? closeButton : frame);
  let closeButton: HTMLButtonElement | null = null;
  before.addEventListener('focus', () => frame.focus());
  after.addEventListener('focus', () => first().focus());

  const { onDismiss } = options;
  if (onDismiss) {
    closeButton = document.createElement('button');
    closeButton.type = 'button';
    closeButton.textContent = '×';
    closeButton.setAttribute('aria-label', options.closeLabel ?? 'Close');
    closeButton.style.cssText = CLOSE_STYLE;
    if (options.closeAbove) {
      closeButton.style.top = '0';
      closeButton.style.right = '0';
      panel.style.paddingTop = `${CLOSE_ABOVE_ROOM}px`;
      frame.style.maxHeight = `calc(100vh - ${24 + CLOSE_ABOVE_ROOM}px)`;
    }
    closeButton.addEventListener('click', () => onDismiss());
  }
  let dismissible = true;
  // Captured before the page's own Escape handlers: Escape closes this dialog, not what is behind it.
  const onKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && onDismiss && dismissible) {
      event.preventDefault();
      event.stopPropagation();
      onDismiss();
    }
  };
  window.addEventListener('keydown', onKeydown, true);

  panel.append(...(closeButton ? [closeButton] : []), frame);
  overlay.append(before, panel, after);
  document.body.append(overlay);
  // The page behind does not scroll while the dialog is open.
  const overflow = document.documentElement.style.overflow;
  document.documentElement.style.overflow = 'hidden';
  frame.addEventListener('load', () => frame.focus(), { once: true });
  return {
    frame,
    resize(height) {
      frame.style.height = `${Math.max(120, Math.ceil(height))}px`;
    },
    setDismissible(value) {
      dismissible = value;
      if (closeButton) closeButton.hidden = !value;
    },
    relabel(newLabel, closeLabel) {
      overlay.setAttribute('aria-label', newLabel);
      frame.title = newLabel;
      if (closeButton && closeLabel) closeButton.setAttribute('aria-label', closeLabel);
    },
    close() {
      window.removeEventListener('keydown', onKeydown, true);
      overlay.remove();
      document.documentElement.style.overflow = overflow;
      focusBack(previouslyFocused);
    },
  };
}
