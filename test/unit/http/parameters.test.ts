import { expect } from 'chai';
import { z } from 'zod';
import { InvalidRequestError } from '../../../packages/domain/errors.ts';
import { listParams, METADATA_MAX_PAIRS, p } from '../../../packages/http/params.ts';
import { validateParameters } from '../../../packages/http/validation.ts';
import { call, startToyApi, type ToyApi } from './support/toy-api.ts';

function messageOf(schema: z.ZodType, input: unknown): string {
  try {
    validateParameters(schema, input);
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidRequestError);
    return (error as Error).message;
  }
  throw new Error('expected a validation failure');
}

describe('http kit: parameter validation over HTTP', () => {
  let api: ToyApi;
  before(async () => {
    api = await startToyApi();
  });
  after(() => api.close());

  const cases: [string, string, string, { json?: unknown; form?: string }, string][] = [
    ['a missing parameter', 'POST', '/widgets', { form: 'currency=USD' }, 'amount: Must not be empty.'],
    ['an unknown parameter', 'POST', '/widgets', { form: 'amount=1&currency=USD&foo=1' }, 'Unknown parameter: foo'],
    [
      'an unknown nested parameter',
      'POST',
      '/widgets',
      { form: 'amount=1&currency=USD&shipping[name]=a&shipping[nmae]=b' },
      'Unknown parameter: shipping[nmae]',
    ],
    [
      'a misspelt parameter rather than the one it hides',
      'POST',
      '/widgets',
      { form: 'amout=1&currency=USD' },
      'Unknown parameter: amout',
    ],
    [
      'a wrong type in a form body',
      'POST',
      '/widgets',
      { form: 'amount=abc&currency=USD' },
      'Invalid parameter: amount must be an integer of at least 1',
    ],
    [
      'a wrong type in a JSON body',
      'POST',
      '/widgets',
      { json: { amount: '1.5', currency: 'USD' } },
      'Invalid parameter: amount must be an integer of at least 1',
    ],
    [
      'a fraction',
      'POST',
      '/widgets',
      { json: { amount: 1.5, currency: 'USD' } },
      'Invalid parameter: amount must be an integer of at least 1',
    ],
    [
      'an out-of-range value',
      'POST',
      '/widgets',
      { json: { amount: 0, currency: 'USD' } },
      'Invalid parameter: amount must be an integer of at least 1',
    ],
    [
      'a nested missing parameter',
      'POST',
      '/widgets',
      { form: 'amount=1&currency=USD&shipping[address][line1]=x&shipping[name]=n' },
      'shipping[address][zip]: Must not be empty.',
    ],
    [
      'a bad currency',
      'POST',
      '/widgets',
      { json: { amount: 1, currency: 'US' } },
      'Invalid parameter: currency must be a three-letter ISO currency code',
    ],
    [
      'a bad boolean',
      'POST',
      '/widgets',
      { form: 'amount=1&currency=USD&captured=yes' },
      'Invalid parameter: captured must be a boolean (true or false)',
    ],
    [
      'a bad enum value',
      'POST',
      '/widgets',
      { form: 'amount=1&currency=USD&kind=huge' },
      'Invalid parameter: kind must be one of: small, large',
    ],
    [
      'an id with the wrong prefix',
      'POST',
      '/widgets',
      { form: 'amount=1&currency=USD&customerId=char_123' },
      'Invalid parameter: customerId must be an id starting with cust_',
    ],
    [
      'a too long string',
      'POST',
      '/widgets',
      { form: 'amount=1&currency=USD&description=abcdefghijk' },
      'Invalid parameter: description must be at most 10 characters long',
    ],
    [
      'a repeated scalar',
      'POST',
      '/widgets',
      { form: 'amount=1&amount=2&currency=USD' },
      'Invalid parameter: amount must be an integer of at least 1',
    ],
    [
      'an array element of the wrong type',
      'POST',
      '/widgets',
      { json: { amount: 1, currency: 'USD', items: ['a', 2] } },
      'Invalid parameter: items[1] must be a string',
    ],
    [
      'a non-string metadata value',
      'POST',
      '/widgets',
      { json: { amount: 1, currency: 'USD', metadata: { a: 1 } } },
      'Invalid parameter: metadata[a] must be a string',
    ],
    [
      'a list limit out of range',
      'GET',
      '/widgets?limit=500',
      {},
      'Invalid parameter: limit must be an integer between 1 and 100',
    ],
    [
      'a list limit of zero',
      'GET',
      '/widgets?limit=0',
      {},
      'Invalid parameter: limit must be an integer between 1 and 100',
    ],
    [
      'a bad created bound',
      'GET',
      '/widgets?created[gte]=yesterday',
      {},
      'Invalid parameter: created[gte] must be a Unix timestamp in seconds',
    ],
    ['an unknown created bound', 'GET', '/widgets?created[after]=1', {}, 'Unknown parameter: created[after]'],
    ['created given as a scalar', 'GET', '/widgets?created=1', {}, 'Invalid parameter: created must be an object'],
    ['an unknown query parameter', 'GET', '/widgets?expand=all', {}, 'Unknown parameter: expand'],
    ['a query parameter on a route without query', 'GET', '/widgets/wid_1?x=1', {}, 'Unknown parameter: x'],
    [
      'a bad path parameter',
      'GET',
      '/widgets/cust_1',
      {},
      'Invalid parameter: widgetId must be an id starting with wid_',
    ],
  ];
  for (const [what, method, path, body, message] of cases) {
    it(`names the parameter for ${what}`, async () => {
      const res = await call(api, method, path, body);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: { type: 'invalid_request', message } });
    });
  }

  it('never echoes the value sent', async () => {
    const res = await call(api, 'POST', '/widgets', { json: { amount: '4242424242424242x', currency: 'USD' } });
    expect(res.status).to.equal(400);
    expect(res.body.error.message).not.to.contain('4242');
  });
});

describe('http kit: parameter helpers', () => {
  it('p.int accepts integers and digit strings, negative ones too', () => {
    const schema = p.int();
    expect(validateParameters(schema, 7)).to.equal(7);
    expect(validateParameters(schema, '42')).to.equal(42);
    expect(validateParameters(schema, '-3')).to.equal(-3);
    for (const bad of ['4.2', '1e3', ' 1', '', '0x10', true, null, 2 ** 60]) {
      expect(() => validateParameters(schema, bad), String(bad)).to.throw('must be an integer');
    }
  });

  it('p.int states its range in its message', () => {
    expect(messageOf(z.object({ n: p.int({ max: 5 }) }), { n: 9 })).to.equal(
      'Invalid parameter: n must be an integer of at most 5',
    );
    expect(messageOf(z.object({ n: p.int({ min: 1, max: 5 }) }), { n: '0' })).to.equal(
      'Invalid parameter: n must be an integer between 1 and 5',
    );
  });

  it('p.bool accepts true/false and 1/0 as booleans or strings', () => {
    const schema = p.bool();
    expect([true, 'true', '1', false, 'false', '0'].map((value) => validateParameters(schema, value))).to.deep.equal([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(() => validateParameters(schema, 'TRUE')).to.throw('must be a boolean');
    expect(() => validateParameters(schema, 1)).to.throw('must be a boolean');
  });

  it('p.string enforces its bounds', () => {
    expect(messageOf(z.object({ s: p.string({ min: 1 }) }), { s: '' })).to.equal(
      'Invalid parameter: s must not be empty',
    );
    expect(messageOf(z.object({ s: p.string({ min: 3 }) }), { s: 'ab' })).to.equal(
      'Invalid parameter: s must be at least 3 characters long',
    );
  });

  it('p.timestamp takes Unix seconds, not milliseconds', () => {
    expect(validateParameters(p.timestamp(), '1700000000')).to.equal(1_700_000_000);
    expect(() => validateParameters(p.timestamp(), 1_700_000_000_000)).to.throw('must be a Unix timestamp in seconds');
    expect(() => validateParameters(p.timestamp(), -1)).to.throw('must be a Unix timestamp in seconds');
  });

  it('p.metadata limits keys, values and the number of pairs', () => {
    const schema = z.object({ metadata: p.metadata() });
    const long = 'x'.repeat(256);
    expect(validateParameters(schema, { metadata: { a: 'b' } })).to.deep.equal({ metadata: { a: 'b' } });
    expect(messageOf(schema, { metadata: { a: long } })).to.equal(
      'Invalid parameter: metadata[a] must be at most 255 characters long',
    );
    expect(messageOf(schema, { metadata: { [long]: 'v' } })).to.equal(
      'Invalid parameter: metadata keys must be at most 255 characters long',
    );
    const tooMany = Object.fromEntries(Array.from({ length: METADATA_MAX_PAIRS + 1 }, (_, i) => [`k${i}`, 'v']));
    expect(messageOf(schema, { metadata: tooMany })).to.equal(
      `Invalid parameter: metadata must have at most ${METADATA_MAX_PAIRS} keys`,
    );
    expect(messageOf(schema, { metadata: 'a=b' })).to.equal(
      'Invalid parameter: metadata must be an object of string keys and string values',
    );
    expect(messageOf(schema, { metadata: { a: true } })).to.equal('Invalid parameter: metadata[a] must be a string');
  });

  it('p.currency upper-cases; p.id takes the prefix with or without its underscore', () => {
    expect(validateParameters(p.currency(), 'eur')).to.equal('EUR');
    expect(validateParameters(p.id('cust'), 'cust_abc123')).to.equal('cust_abc123');
    expect(validateParameters(p.id('cust_'), 'cust_abc123')).to.equal('cust_abc123');
    expect(() => validateParameters(p.id('cust'), 'cust_')).to.throw('must be an id starting with cust_');
    expect(() => validateParameters(p.id('cust'), 'customer_1')).to.throw('must be an id starting with cust_');
  });

  it('p.listQuery adds the list parameters to the endpoint filters, strictly', () => {
    const schema = p.listQuery({ customerId: p.id('cust').optional() });
    expect(validateParameters(schema, { customerId: 'cust_1', startingAfterId: 'char_9' })).to.deep.equal({
      customerId: 'cust_1',
      startingAfterId: 'char_9',
      limit: 10,
    });
    expect(messageOf(schema, { endingBeforeId: '' })).to.equal('Invalid parameter: endingBeforeId must not be empty');
    expect(Object.keys(listParams)).to.deep.equal(['limit', 'startingAfterId', 'endingBeforeId', 'created']);
  });

  it('phrases problems of plain zod schemas too', () => {
    const schema = z.strictObject({
      name: z.string(),
      count: z.number().min(2),
      tags: z.array(z.string()).max(1),
      mode: z.literal('x'),
    });
    expect(messageOf(schema, { name: 1, count: 2, tags: [], mode: 'x' })).to.equal(
      'Invalid parameter: name must be a string',
    );
    expect(messageOf(schema, { name: 'a', count: 1, tags: [], mode: 'x' })).to.equal(
      'Invalid parameter: count must be at least 2',
    );
    expect(messageOf(schema, { name: 'a', count: 2, tags: ['a', 'b'], mode: 'x' })).to.equal(
      'Invalid parameter: tags must have at most 1 items',
    );
    expect(messageOf(schema, { name: 'a', count: 2, tags: [], mode: 'y' })).to.equal(
      'Invalid parameter: mode must be x',
    );
  });
});
