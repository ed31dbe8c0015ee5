import type { ApiErrorBody, ChallengeToPage } from '../messages.ts';
import type { ChallengeScriptMessage, ChallengeScriptMessages } from './challenge-messages.ts';

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
/** The payer's language's messages, rendered into the page by the service. */
const messages = JSON.parse(
  document.getElementById('challenge-messages')?.textContent ?? '{}',
) as ChallengeScriptMessages;
const say = (key: ChallengeScriptMessage): string => messages[key] ?? key;

/** The page that opened the challenge: this frame's parent, or the window that opened it. */
function opener(): Window | null {
  return window.parent !== window ? window.parent : (window.opener as Window | null);
}

function toOpener(message: ChallengeToPage): void {
  opener()?.postMessage(message, pageOrigin);
}

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
    showCodeError(say('enterCode'));
    code.focus();
    return;
  }
  showCodeError(null);
  void answer(outcome);
});

async function answer(outcome: 'complete' | 'fail'): Promise<void> {
  for (const button of buttons) button.disabled = true;
  status.textContent = say('sending');
  try {
    const response = await fetch('/three-d-secure/challenge', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: tokenId, key: publicKey, outcome, ...(code.value ? { code: code.value } : {}) }),
    });
    const body = (await response.json()) as { error?: ApiErrorBody };
    if (!response.ok) throw new Error(body.error?.message ?? response.statusText);
    status.textContent = say(outcome === 'complete' ? 'authenticationComplete' : 'authenticationRefused');
    toOpener({ source: 'shift4-challenge', type: 'result', token: body });
  } catch (error) {
    // The cardholder reads a sentence in their language; the service's own words go to the console.
    console.error('The challenge answer was not accepted:', error instanceof Error ? error.message : error);
    status.textContent = say('answerNotAccepted');
    for (const button of buttons) button.disabled = false;
  }
}

// Escape leaves the challenge: the page that opened it closes it (keys typed here do not reach it).
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  event.preventDefault();
  toOpener({ source: 'shift4-challenge', type: 'escape' });
});

// The answers wait for this script (the page renders them disabled): before it, a click would
// submit the form as a plain page request and the answer would be lost.
for (const button of buttons) button.disabled = false;

// The dialog around this page takes its name, its close button's and the cancellation's message in
// the payer's language from here.
toOpener({
  source: 'shift4-challenge',
  type: 'ready',
  labels: { dialog: say('challengeTitle'), close: say('cancelAuthentication'), cancelled: say('challengeCancelled') },
});
code.focus();
