import type { FieldName } from './fields/card-rules.ts';
import type { CardFieldError } from './fields/field-messages.ts';

/**
 * The messages between the merchant's page (the library), the card field frames and the challenge
 * frame, all served by this service. Every `postMessage` names its target origin, and every receiver
 * checks `event.origin` (and the message's `source` tag) before reading anything.
 */

/** An error as the API answers it (`{ error: { type, code, message } }`), and as promises reject. */
export interface ApiErrorBody {
  type: string;
  code?: string;
  message: string;
  /** The request parameter the error is about, when the API names one. */
  param?: string;
}

/** What a field tells the page about itself; never its value. */
export interface FieldState {
  field: FieldName;
  empty: boolean;
  complete: boolean;
  valid: boolean;
  error: string | null;
  /** Card brand name (number field only), e.g. `Visa`. */
  brand: string | null;
}

/** Non-sensitive card fields the merchant may add in `createToken(components, extra)`. */
export const EXTRA_FIELDS = [
  'cardholderName',
  'addressLine1',
  'addressLine2',
  'addressCity',
  'addressState',
  'addressZip',
  'addressCountry',
] as const;
export type TokenExtra = Partial<Record<(typeof EXTRA_FIELDS)[number], string>>;

export type FieldToPage =
  /** `title`: the field's label in the payer's language, the frame's accessible name. */
  | { source: 'shift4-field'; type: 'ready'; field: FieldName; title: string }
  | { source: 'shift4-field'; type: 'change'; state: FieldState }
  | { source: 'shift4-field'; type: 'resize'; field: FieldName; height: number }
  | { source: 'shift4-field'; type: 'escape'; field: FieldName }
  | { source: 'shift4-field'; type: 'enter'; field: FieldName }
  | { source: 'shift4-field'; type: 'token'; requestId: string; token: unknown }
  | { source: 'shift4-field'; type: 'token-error'; requestId: string; error: ApiErrorBody };

export type PageToField =
  | { target: 'shift4-field'; type: 'create-token'; requestId: string; fields: FieldName[]; extra: TokenExtra }
  | { target: 'shift4-field'; type: 'focus' }
  | { target: 'shift4-field'; type: 'clear' };

/** Between the field frames of one group (same origin), on the group's BroadcastChannel. */
export type FieldToField =
  | { type: 'brand'; brand: string | null; cvcLength: number; cvcName: string }
  | { type: 'collect'; requestId: string }
  | { type: 'value'; requestId: string; field: FieldName; value: string; error: CardFieldError | null }
  | { type: 'clear' };

/**
 * The challenge page loaded (with its dialog's labels in the payer's language), the cardholder's
 * answer (the updated token), or Escape typed in the challenge: leave it.
 */
export type ChallengeToPage =
  | { source: 'shift4-challenge'; type: 'ready'; labels: ChallengeLabels }
  | { source: 'shift4-challenge'; type: 'result'; token: unknown }
  | { source: 'shift4-challenge'; type: 'escape' };

/** The challenge dialog's name, its close button's, and the message of a cancelled challenge. */
export interface ChallengeLabels {
  dialog: string;
  close: string;
  cancelled: string;
}

export const fieldChannelName = (group: string): string => `shift4-fields-${group}`;

/** What a successful checkout gives the merchant's page, as the public API answers the objects. */
export interface CheckoutResult {
  charge?: unknown;
  subscription?: unknown;
  customer: unknown;
}

/** From the checkout frame to the merchant's page that opened it (`/js/checkout.js`). */
export type CheckoutToPage =
  /** The dialog's and its close button's names in the payer's language. */
  | { source: 'shift4-checkout'; type: 'ready'; labels: { dialog: string; close: string } }
  | { source: 'shift4-checkout'; type: 'resize'; height: number }
  | { source: 'shift4-checkout'; type: 'success'; result: CheckoutResult }
  | { source: 'shift4-checkout'; type: 'error'; error: ApiErrorBody }
  | { source: 'shift4-checkout'; type: 'close' }
  /** A 3-D Secure challenge opened or closed inside checkout: it has its own close button meanwhile. */
  | { source: 'shift4-checkout'; type: 'challenge'; open: boolean };
