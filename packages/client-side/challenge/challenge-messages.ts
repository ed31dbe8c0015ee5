import type { MessageKey } from '../i18n/en.ts';

/**
 * What the challenge page's script writes, and what the library that opened the challenge labels
 * its dialog with: the service renders the page with these messages of the payer's language.
 */
export const CHALLENGE_SCRIPT_MESSAGES = [
  'enterCode',
  'sending',
  'authenticationComplete',
  'authenticationRefused',
  'answerNotAccepted',
  'challengeTitle',
  'cancelAuthentication',
  'challengeCancelled',
] as const satisfies readonly MessageKey[];

export type ChallengeScriptMessage = (typeof CHALLENGE_SCRIPT_MESSAGES)[number];
export type ChallengeScriptMessages = Record<ChallengeScriptMessage, string>;
