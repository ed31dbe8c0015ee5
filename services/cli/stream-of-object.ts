/** The aggregate stream an object id lives in, by the id's prefix (DESIGN §4.1). */
const streamKinds: Record<string, string> = {
  acct: 'account',
  cust: 'customer',
  char: 'charge',
  tok: 'token',
  plan: 'plan',
  sub: 'subscription',
  blr: 'blacklistRule',
  cr: 'credit',
  cso: 'crossSaleOffer',
  we: 'webhookEndpoint',
  wd: 'webhookDelivery',
  clock: 'testClock',
};

export function streamOfObject(objectId: string): string | null {
  const prefix = objectId.split('_')[0] ?? '';
  const kind = streamKinds[prefix];
  return kind ? `${kind}-${objectId}` : null;
}
