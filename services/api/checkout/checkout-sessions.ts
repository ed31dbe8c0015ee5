import { createHash, randomBytes } from 'node:crypto';
import { InvalidRequestError } from '../../../packages/domain/errors.ts';
import type { Mode } from '../../../packages/domain/mode.ts';
import type { Tenant } from '../../../packages/domain/tenant.ts';
import type { Collection, Document } from '../../../packages/readstore/document-store.ts';

/** How long after the main transaction its cross-sale offers can be bought. */
export const CHECKOUT_SESSION_TTL_MS = 30 * 60_000;

/**
 * What a paid checkout remembers for the offers shown after it: the merchant, the customer and
 * saved card that paid, the main transaction, and which offers the signed request showed. The page
 * holds only an unguessable id; the state store keeps its SHA-256.
 */
export interface CheckoutSessionDoc extends Document {
  accountId: string;
  mode: Mode;
  customerId: string;
  /** Null when the main transaction was paid with a payment method: offers need a card. */
  cardId: string | null;
  email: string | null;
  chargeId: string | null;
  subscriptionId: string | null;
  /** SHA-256 of the signed request the session was paid for: offers are bought through that request only. */
  requestDigest: string;
  expiresAt: number;
}

export const digestOf = (text: string): string => createHash('sha256').update(text).digest('hex');

export class CheckoutSessions {
  constructor(private readonly sessions: Collection<CheckoutSessionDoc>) {}

  async open(session: Omit<CheckoutSessionDoc, 'id' | 'created' | 'expiresAt'>, now: Date): Promise<string> {
    const secret = randomBytes(24).toString('base64url');
    await this.sessions.put({
      ...session,
      id: digestOf(secret),
      created: Math.floor(now.getTime() / 1000),
      expiresAt: now.getTime() + CHECKOUT_SESSION_TTL_MS,
    });
    return secret;
  }

  /**
   * The session the page names, when it exists, has not expired and was paid through this signed
   * request for this account and mode; a 400 naming `session` otherwise.
   */
  async paid(secret: string, checkout: Tenant & { checkoutRequest: string }, now: Date): Promise<CheckoutSessionDoc> {
    const session = await this.sessions.get(digestOf(secret));
    if (
      !session ||
      session.expiresAt < now.getTime() ||
      session.requestDigest !== digestOf(checkout.checkoutRequest) ||
      session.accountId !== checkout.accountId ||
      session.mode !== checkout.mode
    )
      throw new InvalidRequestError(
        'Invalid parameter: session is not a paid checkout of this request (or it expired)',
        'session',
      );
    return session;
  }
}
