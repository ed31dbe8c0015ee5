import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Tenant } from '../../../packages/domain/tenant.ts';
import type { Collection, Document } from '../../../packages/readstore/document-store.ts';

/** A confirmation code is good for this long, and for this many wrong tries. */
const CODE_TTL_MS = 10 * 60_000;
const CODE_ATTEMPTS = 5;
/** A confirmed payer has this long to pay with the remembered card. */
const GRANT_TTL_MS = 15 * 60_000;

/**
 * A payer who chose "remember me" in an account's checkout: their email (as a keyed hash: the
 * state store never holds it in clear), the customer and the card they paid with, and the
 * confirmation in progress (a one-time code, then a grant to pay once).
 */
export interface RememberedPayerDoc extends Document {
  customerId: string;
  cardId: string;
  code: { digest: string; nonce: string; expiresAt: number } | null;
  grant: { digest: string; expiresAt: number } | null;
}

export interface RememberedCard {
  customerId: string;
  cardId: string;
}

/**
 * Remembered payers of checkout, per account and mode. The saved card is offered only after the
 * payer proves the email: a one-time code, which a mail server would send; with none, test mode
 * shows it on the page, and live mode cannot confirm (docs/checkout.md).
 */
export class RememberedPayers {
  constructor(
    private readonly payers: Collection<RememberedPayerDoc>,
    /**
     * One document per try of a code and per grant used up, inserted only when absent: however
     * many requests race, a code gets CODE_ATTEMPTS tries and a grant pays once.
     */
    private readonly uses: Collection<Document>,
    /** Keys the email hashes and code digests (derived from the vault key). */
    private readonly key: Buffer,
  ) {}

  async remember(tenant: Tenant, email: string, card: RememberedCard, now: Date) {
    await this.payers.put({
      id: this.payerId(tenant, email),
      created: seconds(now),
      ...card,
      code: null,
      grant: null,
    });
  }

  /** A new one-time code for a remembered payer; null when the email is not remembered. */
  async issueCode(tenant: Tenant, email: string, now: Date): Promise<string | null> {
    const payer = await this.payers.get(this.payerId(tenant, email));
    if (!payer) return null;
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.payers.put({
      ...payer,
      code: {
        digest: this.digest(`code:${payer.id}:${code}`),
        nonce: randomBytes(12).toString('hex'),
        expiresAt: now.getTime() + CODE_TTL_MS,
      },
      grant: null,
    });
    return code;
  }

  /** Checks the code; a right one is used up and exchanged for a grant to pay once with the card. */
  async confirm(
    tenant: Tenant,
    email: string,
    code: string,
    now: Date,
  ): Promise<{ grant: string; card: RememberedCard } | null> {
    const payer = await this.payers.get(this.payerId(tenant, email));
    if (!payer?.code || payer.code.expiresAt < now.getTime()) return null;
    if (!(await this.takeTry(payer.code.nonce, now))) return null;
    if (!this.same(payer.code.digest, this.digest(`code:${payer.id}:${code}`))) return null;
    const secret = randomBytes(24).toString('base64url');
    await this.payers.put({
      ...payer,
      code: null,
      grant: { digest: this.digest(`grant:${payer.id}:${secret}`), expiresAt: now.getTime() + GRANT_TTL_MS },
    });
    return {
      grant: `${grantPayerId(payer.id)}.${secret}`,
      card: { customerId: payer.customerId, cardId: payer.cardId },
    };
  }

  /** Uses up a grant: the remembered card, when the grant is this tenant's, unused and in time. */
  async redeem(tenant: Tenant, email: string, grant: string, now: Date) {
    const payerId = this.payerId(tenant, email);
    const [grantPayer, secret] = grant.split('.');
    if (grantPayer !== grantPayerId(payerId) || !secret) return null;
    const payer = await this.payers.get(payerId);
    if (!payer?.grant || payer.grant.expiresAt < now.getTime()) return null;
    if (!this.same(payer.grant.digest, this.digest(`grant:${payer.id}:${secret}`))) return null;
    if (!(await this.uses.insert({ id: `grant:${payer.grant.digest}`, created: seconds(now) }))) return null;
    return { customerId: payer.customerId, cardId: payer.cardId };
  }

  private async takeTry(nonce: string, now: Date): Promise<boolean> {
    for (let attempt = 1; attempt <= CODE_ATTEMPTS; attempt++)
      if (await this.uses.insert({ id: `code:${nonce}:${attempt}`, created: seconds(now) })) return true;
    return false;
  }

  private payerId(tenant: Tenant, email: string): string {
    return this.digest(`payer:${tenant.accountId}:${tenant.mode}:${email.trim().toLowerCase()}`);
  }

  private digest(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('hex');
  }

  private same(a: string, b: string): boolean {
    return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  }
}

/**
 * The payer's id as a grant names it: base64url, not the id's hexadecimal, whose long runs of
 * digits could read as a card number, which requests may not carry outside card fields.
 */
const grantPayerId = (payerId: string): string => Buffer.from(payerId, 'hex').toString('base64url');

const seconds = (now: Date): number => Math.floor(now.getTime() / 1000);
