import type autocannon from 'autocannon';

/**
 * The benchmark's five service scenarios as localstripe (an in-memory Stripe fake in Python) serves
 * them, for a side-by-side row each: the same reads, a customer created, and a charge of new card
 * details. Stripe takes new card details in two requests (a payment method, then a payment intent
 * confirmed at once), so that scenario runs them in turn and is counted per charge.
 */
export interface PeerScenario {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Requests that make one operation, run in turn on each connection (one operation = all of them). */
  sequence?: autocannon.Request[];
  /** The bare scenario this one is compared with. */
  baseline: string;
}

/** What a connection keeps between the two requests of a charge. */
interface ChargeContext {
  paymentMethod: string;
}

const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

const CUSTOMER_FORM = form({ email: 'bench@example.com', 'metadata[k]': 'v' });
const CARD_FORM = form({
  type: 'card',
  'card[number]': '4242424242424242',
  'card[exp_month]': '12',
  'card[exp_year]': '2034',
  'card[cvc]': '123',
});
const paymentIntentForm = (paymentMethod: string): string =>
  form({
    amount: '1999',
    currency: 'eur',
    payment_method: paymentMethod,
    confirm: 'true',
    'metadata[k]': 'v',
  });

/** What the scenarios need made first: customers for the list and one charge to read. */
export async function prepareLocalstripe(
  url: string,
  secretKey: string,
  customers: number,
): Promise<{ customerId: string; chargeId: string }> {
  const headers = { authorization: `Bearer ${secretKey}`, 'content-type': 'application/x-www-form-urlencoded' };
  const post = async (path: string, body: string): Promise<Record<string, unknown>> => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers, body });
    const answer = (await response.json()) as Record<string, unknown>;
    if (!response.ok)
      throw new Error(`localstripe POST ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
  let customerId = '';
  for (let made = 0; made < customers; made++) customerId = String((await post('/v1/customers', CUSTOMER_FORM)).id);
  const paymentMethod = await post('/v1/payment_methods', CARD_FORM);
  const intent = await post('/v1/payment_intents', paymentIntentForm(String(paymentMethod.id)));
  if (intent.status !== 'succeeded') throw new Error(`localstripe did not charge the card: ${JSON.stringify(intent)}`);
  // localstripe gives the charge itself where Stripe gives its id unless asked to expand it.
  const latest = intent.latest_charge as string | { id?: string } | undefined;
  const chargeId = String((typeof latest === 'object' ? latest.id : latest) ?? '');
  if (!chargeId.startsWith('ch_'))
    throw new Error(`localstripe's payment intent names no charge: ${JSON.stringify(intent)}`);
  return { customerId, chargeId };
}

export function localstripeScenarios(
  url: string,
  secretKey: string,
  made: { customerId: string; chargeId: string },
): PeerScenario[] {
  const auth = { authorization: `Bearer ${secretKey}` };
  const formHeaders = { ...auth, 'content-type': 'application/x-www-form-urlencoded' };
  return [
    {
      name: 'localstripe GET /v1/customers/{id}',
      method: 'GET',
      url: `${url}/v1/customers/${made.customerId}`,
      headers: auth,
      baseline: 'bare GET /bare',
    },
    {
      name: 'localstripe GET /v1/customers?limit=10',
      method: 'GET',
      url: `${url}/v1/customers?limit=10`,
      headers: auth,
      baseline: 'bare GET /bare',
    },
    {
      name: 'localstripe GET /v1/charges/{id}',
      method: 'GET',
      url: `${url}/v1/charges/${made.chargeId}`,
      headers: auth,
      baseline: 'bare GET /bare',
    },
    {
      name: 'localstripe POST /v1/customers',
      method: 'POST',
      url: `${url}/v1/customers`,
      headers: formHeaders,
      body: CUSTOMER_FORM,
      baseline: 'bare POST /bare',
    },
    {
      name: 'localstripe POST /v1/payment_methods + /v1/payment_intents (new card details; per charge)',
      method: 'POST',
      url: `${url}/v1/payment_methods`,
      headers: formHeaders,
      sequence: [
        {
          method: 'POST',
          path: '/v1/payment_methods',
          headers: formHeaders,
          body: CARD_FORM,
          onResponse: (_status, body, context) => {
            (context as ChargeContext).paymentMethod = (JSON.parse(body) as { id?: string }).id ?? '';
          },
        },
        {
          method: 'POST',
          path: '/v1/payment_intents',
          headers: formHeaders,
          setupRequest: (request, context) => ({
            ...request,
            body: paymentIntentForm((context as ChargeContext).paymentMethod),
          }),
        },
      ],
      baseline: 'bare POST /bare',
    },
  ];
}
