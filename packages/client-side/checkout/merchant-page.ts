import { type CheckoutToPage } from '../messages.ts';
import { byId } from './checkout-dom.ts';

/**
 * What the checkout frame tells the merchant's page that framed it: its size, an open challenge,
 * its labels, a request to close, and an error; to that page's origin only.
 */
/** Messages go to the page that framed checkout, and to its origin only. */
export function toPage(message: CheckoutToPage, origin: string | null): void {
  if (origin && window.parent !== window) window.parent.postMessage(message, origin);
}

/** Height the issuer's challenge page needs (it opens over this page, inside this frame). */
export const CHALLENGE_HEIGHT = 640;

/** The frame fits its content: the merchant's page sizes the dialog from it. */
export function reportHeight(origin: string | null): void {
  const send = () => {
    const challengeOpen = document.querySelector('[data-shift4-overlay]') !== null;
    const content = document.body.getBoundingClientRect().height;
    toPage(
      {
        source: 'shift4-checkout',
        type: 'resize',
        height: challengeOpen ? Math.max(content, CHALLENGE_HEIGHT) : content,
      },
      origin,
    );
  };
  new ResizeObserver(send).observe(document.body);
  // The challenge dialog is fixed over the page and does not change its height: it is watched apart.
  new MutationObserver(send).observe(document.body, { childList: true });
  send();
}

/**
 * The merchant's page hides its close button while a 3-D Secure challenge is open here: the
 * challenge has its own (above the issuer's page), and Escape leaves the challenge, not checkout.
 */
export function reportChallenge(origin: string | null): void {
  let open = false;
  new MutationObserver(() => {
    const now = document.querySelector('[data-shift4-overlay]') !== null;
    if (now === open) return;
    open = now;
    toPage({ source: 'shift4-checkout', type: 'challenge', open }, origin);
  }).observe(document.body, { childList: true });
}

/** The merchant's page names the dialog around checkout and its close button in the page's language. */
export function reportLabels(origin: string | null): void {
  const { dialogLabel, closeLabel } = document.documentElement.dataset;
  if (dialogLabel && closeLabel)
    toPage({ source: 'shift4-checkout', type: 'ready', labels: { dialog: dialogLabel, close: closeLabel } }, origin);
}

/** Escape and the Done/Close button close checkout, wherever the focus is in this page. */
export function closeOnRequest(origin: string | null): void {
  const close = () => toPage({ source: 'shift4-checkout', type: 'close' }, origin);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });
  byId('done')?.addEventListener('click', close);
}

/** `origin=` of this page's address, when it is an origin. */
export function originParameter(): string | null {
  const value = new URLSearchParams(location.search).get('origin');
  try {
    return value && new URL(value).origin === value ? value : null;
  } catch {
    return null;
  }
}
