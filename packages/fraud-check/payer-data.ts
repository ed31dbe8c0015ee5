import type { FraudCheckData } from '../domain/card/card-snapshot.ts';
import { maskCardNumbers } from '../network/card-numbers-in-text.ts';
import { ipCountry } from './ip-country.ts';

/** What a payer's own browser request shows about them. */
export interface ObservedPayer {
  ipAddress: string | null;
  userAgent: string | null;
  acceptLanguage: string | null;
}

/**
 * The fraud-check data of a card created from the payer's browser (public key): the request's IP,
 * User-Agent and Accept-Language replace what the page claims (a page's script could send
 * anything), the rest of what it sent (email, phone, fingerprint) is kept. A card number in a
 * header (a browser sends what it is told to) is masked: the payer's request is not refused for it.
 */
export function payerFraudCheckData(observed: ObservedPayer, sent: FraudCheckData | undefined): FraudCheckData {
  const data: FraudCheckData = { ...sent };
  if (observed.ipAddress) {
    data.ipAddress = maskCardNumbers(observed.ipAddress);
    delete data.ipCountry;
  }
  if (observed.userAgent) data.userAgent = maskCardNumbers(observed.userAgent);
  if (observed.acceptLanguage) data.acceptLanguage = maskCardNumbers(observed.acceptLanguage);
  return withIpCountry(data);
}

/** `ipCountry` filled in from `ipAddress` when not given and the address is known to GeoIP. */
export function withIpCountry(data: FraudCheckData): FraudCheckData {
  if (data.ipCountry || !data.ipAddress) return data;
  const country = ipCountry(data.ipAddress);
  return country ? { ...data, ipCountry: country } : data;
}
