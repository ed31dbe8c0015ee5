import { expect } from 'chai';
import { cardDetails } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';

const WHY =
  'must not contain a card number; card numbers are accepted only in card number fields, which keep them in the vault';

describe('card numbers in free-text fields', function () {
  this.timeout(60_000);
  const { api } = useService();

  it('refuses a card number in any free text with a 400 that says why, storing nothing', async () => {
    const card = cardDetails('4242424242424242');
    const refused: [string, string, { json?: unknown; form?: Record<string, string> }][] = [
      [
        '/charges',
        'description',
        { json: { amount: 100, currency: 'EUR', card, description: 'pan 4000000000000077' } },
      ],
      [
        '/charges',
        'metadata[note]',
        { json: { amount: 100, currency: 'EUR', card, metadata: { note: '4242-4242-4242-4242' } } },
      ],
      [
        '/charges',
        'card[cardholderName]',
        { json: { amount: 100, currency: 'EUR', card: { ...card, cardholderName: 'J 5555555555554444' } } },
      ],
      ['/customers', 'email', { json: { email: '4000000000000077@example.com' } }],
      ['/customers', 'description', { form: { email: 'a@example.com', description: 'card 4242 4242 4242 4242' } }],
      [
        '/customers',
        'a parameter name in metadata',
        { json: { email: 'a@example.com', metadata: { 'pan 378282246310005': 'x' } } },
      ],
    ];
    for (const [path, parameter, body] of refused) {
      const response = await api.post<{ error: { type: string; message: string } }>(path, body);
      expect(response.status, `${path} ${parameter}`).to.equal(400);
      expect(response.body.error).to.deep.equal({
        type: 'invalid_request',
        message: `Invalid parameter: ${parameter} ${WHY}`,
      });
    }
    expect((await api.get<{ list: unknown[] }>('/customers')).body.list).to.deep.equal([]);
    expect((await api.get<{ list: unknown[] }>('/charges')).body.list).to.deep.equal([]);
  });

  it('accepts long numbers that fail the Luhn check, short numbers, and card numbers in card number fields', async () => {
    const customer = await api.post('/customers', {
      json: {
        email: 'order-4242424242424241@example.com',
        // 1795000000004 passes Luhn but no card brand issues 13-digit numbers starting with 1.
        description: 'order 4242424242424241, phone +48 123 456 789, at 1795000000004',
        card: cardDetails('4242424242424242'),
      },
    });
    expect(customer.status).to.equal(200);
    const rule = await api.post('/blacklist', { json: { ruleType: 'fingerprint', cardNumber: '4000000000000077' } });
    expect(rule.status).to.equal(200);
  });

  it('takes UUIDs as identifiers: a UUID Idempotency-Key or metadata value that reads as digits is accepted and replayed', async () => {
    // Read as groups of digits, each holds a stretch that passes for a card number.
    const key = 'f3915144-6810-463a-a56d-7b32da28afe2';
    const body = {
      json: {
        amount: 100,
        currency: 'EUR',
        card: cardDetails('4242424242424242'),
        metadata: { orderId: 'e5885087-3288-4afa-9a2a-6176fe6ca7cd' },
      },
      headers: { 'Idempotency-Key': key },
    };
    const first = await api.post<{ id: string; metadata: Record<string, string> }>('/charges', body);
    expect(first.status).to.equal(200);
    expect(first.body.metadata).to.deep.equal({ orderId: 'e5885087-3288-4afa-9a2a-6176fe6ca7cd' });
    const again = await api.post<{ id: string }>('/charges', body);
    expect(again.status).to.equal(200);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.id).to.equal(first.body.id);
  });
});
