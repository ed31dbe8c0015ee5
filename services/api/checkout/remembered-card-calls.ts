import { z } from 'zod';
import { InvalidRequestError } from '../../../packages/domain/errors.ts';
import { p } from '../../../packages/http/params.ts';
import { validateParameters } from '../../../packages/http/validation.ts';
import { cardsCollection } from '../../../projections/cards-projection.ts';
import type { ObjectReader } from '../object-reader.ts';
import type { VerifiedCheckout } from './checkout-verification.ts';
import type { RememberedPayers } from './remembered-payers.ts';

const email = () => z.email({ error: 'must be an email address' }).max(255);

const codeBody = p.object({ checkoutRequest: p.string({ min: 1 }), email: email() });
const confirmBody = p.object({
  checkoutRequest: p.string({ min: 1 }),
  email: email(),
  code: z.string({ error: 'must be the 6-digit code' }).regex(/^\d{6}$/, { error: 'must be the 6-digit code' }),
});

interface RememberedCardDependencies {
  rememberedPayers: RememberedPayers;
  reader: ObjectReader;
}

/**
 * Starts the confirmation of a remembered payer: a new one-time code. There is no mail server, so
 * test mode answers the code for the page to show; live mode answers the same `sent: true`
 * whether or not the email is remembered, so that the answer tells nothing about the payer.
 */
export async function sendRememberedCardCode(
  deps: RememberedCardDependencies,
  verified: VerifiedCheckout,
  body: unknown,
): Promise<{ sent: true; testCode?: string }> {
  const input = validateParameters(codeBody, body);
  requireRememberMe(verified);
  const code = await deps.rememberedPayers.issueCode(tenantOf(verified), input.email, new Date());
  return verified.auth.mode === 'test' && code !== null ? { sent: true, testCode: code } : { sent: true };
}

/** Exchanges the right code for a grant to pay once with the remembered card, and shows which card. */
export async function confirmRememberedCard(
  deps: RememberedCardDependencies,
  verified: VerifiedCheckout,
  body: unknown,
): Promise<{ rememberedCard: string; card: { brand: string; last4: string; expMonth: string; expYear: string } }> {
  const input = validateParameters(confirmBody, body);
  requireRememberMe(verified);
  const confirmed = await deps.rememberedPayers.confirm(tenantOf(verified), input.email, input.code, new Date());
  if (!confirmed) throw new InvalidRequestError('Invalid parameter: code is not the code sent, or it expired', 'code');
  const card = await deps.reader.get(cardsCollection, confirmed.card.cardId, verified.auth).catch(() => null);
  if (!card || card.deleted) throw new InvalidRequestError('The remembered card was deleted; pay with a card instead');
  return {
    rememberedCard: confirmed.grant,
    card: { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear },
  };
}

function requireRememberMe(verified: VerifiedCheckout): void {
  if (!verified.view.rememberMe)
    throw new InvalidRequestError('Invalid request: this checkout request does not offer remembered cards');
}

const tenantOf = (verified: VerifiedCheckout) => ({ accountId: verified.auth.accountId, mode: verified.auth.mode });
