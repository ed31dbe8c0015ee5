import type { ApiErrorBody, ChallengeToPage } from '../messages.ts';

/**
 * The issuer's challenge page (the service's simulated access control server): the cardholder
 * completes it with the one-time code, or fails it. The outcome goes to the service, then the
 * updated token to the page that opened the challenge, and only to that page's origin.
 */

const params = new URLSearchParams(location.search);
const tokenId = params.get('token') ?? '';
const publicKey = params.get('key') ?? '';
const pageOrigin = params.get('origin') ?? '';

const form = document.getElementById('challenge') as HTMLFormElement;
const code = document.getElementById('code') as HTMLInputElement;
const codeError = document.getElementById('code-error') as HTMLElement;
const status = document.getElementById('status') as HTMLElement;
const buttons = [...form.querySelectorAll('button')];

function showCodeError(message: string | null): void {
  codeError.textContent = message ?? '';
  code.setAttribute('aria-invalid', message ? 'true' : 'false');
}

code.addEventListener('input', () => {
  code.value = code.value.replace(/\D/g, '').slice(0, 6);
  if (code.value.length === 6) showCodeError(null);
});

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
  const outcome = submitter?.value === 'fail' ? 'fail' : 'complete';
  if (outcome === 'complete' && !/^\d{6}$/.test(code.value)) {
    showCodeError('Enter the 6-digit code.');
    /** The page that opened the challenge: this frame's parent, or the window that opened it. */
    function opener(): Window | null {
      return window.parent !== window ? window.parent : (window.opener as Window | null);
    }

    // Escape leaves the challenge: the page that opened it closes it (keys typed here do not reach it).
    document.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      const message: ChallengeToPage = { source: 'shift4-challenge', type: 'escape' };
      opener()?.postMessage(message, pageOrigin);
    });

    code.focus();
    return;
  }
  showCodeError(null);
  void answer(outcome);
});

async function answer(outcome: 'complete' | 'fail'): Promise<void> {
  for (const button of buttons) button.disabled = true;
  status.textContent = 'Sending…';
  try {
    const response = await fetch('/three-d-secure/challenge', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: tokenId, key: publicKey, outcome, ...(code.value ? { code: code.value } : {}) }),
    });
    const body = (await response.json()) as { error?: ApiErrorBody };
    if (!response.ok) throw new Error(body.error?.message ?? 'The answer was not accepted.');
    status.textContent = outcome === 'complete' ? 'Authentication complete.' : 'Authentication failed.';
    const message: ChallengeToPage = { source: 'shift4-challenge', type: 'result', token: body };
    opener()?.postMessage(message, pageOrigin);
  } catch (error) {
    status.textContent = error instanceof Error ? error.message : 'The answer was not accepted.';
    for (const button of buttons) button.disabled = false;
  }
}

/** The page that opened the challenge: this frame's parent, or the window that opened it. */
function opener(): Window | null {
  return window.parent !== window ? window.parent : (window.opener as Window | null);
}

// Escape leaves the challenge: the page that opened it closes it (keys typed here do not reach it).
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  event.preventDefault();
  const message: ChallengeToPage = { source: 'shift4-challenge', type: 'escape' };
  opener()?.postMessage(message, pageOrigin);
});

code.focus();
