import type { MessageKey } from '../i18n/en.ts';

/**
 * What a card field frame may tell the customer: the checks' messages (`card-rules.ts`) and the
 * frame's own. The service renders the frame's page with these messages of the payer's language
 * (the frame's script carries no catalog).
 */
export const CARD_FIELD_ERRORS = [
  'numberIncomplete',
  'numberInvalid',
  'expiryIncomplete',
  'expiryMonthInvalid',
  'expiryYearPast',
  'expiryPast',
  'expiryYearInvalid',
  'cvcIncomplete',
  'cvcInvalid',
] as const satisfies readonly MessageKey[];

export type CardFieldError = (typeof CARD_FIELD_ERRORS)[number];

export const FIELD_FRAME_MESSAGES = [
  ...CARD_FIELD_ERRORS,
  'fieldsNotAnswering',
  'serviceUnreachable',
  'unexpectedAnswer',
] as const satisfies readonly MessageKey[];

export type FieldFrameMessage = (typeof FIELD_FRAME_MESSAGES)[number];
export type FieldFrameMessages = Record<FieldFrameMessage, string>;
