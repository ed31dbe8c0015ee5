import { expect } from 'chai';
import { asStored, canonicalJson, eventHash, GENESIS_HASH } from '../../../packages/eventstore/event-hash.ts';

/** The definition of the canonical JSON: `JSON.stringify` of a copy with every object's keys sorted. */
function definition(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** A small deterministic random source, so that a failure names values that can be made again. */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const KEYS = [
  'a',
  'B',
  'b',
  'é',
  'Z',
  '10',
  '9',
  '0',
  '01',
  '-1',
  '4294967294',
  '4294967295',
  '__proto__',
  '',
  ' ',
  'a b',
  '\u0000',
];
const LEAVES: unknown[] = [
  '',
  'text',
  'é\u2028\ud800',
  '"quoted"\n',
  'back\\slash\u001f\u007f',
  'pair \ud83d\ude00',
  'lone \udc00',
  () => 1,
  Symbol('leaf'),
  0,
  -0,
  1.5,
  1e21,
  -1e-7,
  NaN,
  Infinity,
  true,
  false,
  null,
  undefined,
];

function randomValue(random: () => number, depth: number): unknown {
  const pick = random();
  if (depth > 3 || pick < 0.4) return LEAVES[Math.floor(random() * LEAVES.length)];
  if (pick < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
  const entries: [string, unknown][] = [];
  for (let count = Math.floor(random() * 6); count > 0; count -= 1)
    entries.push([KEYS[Math.floor(random() * KEYS.length)]!, randomValue(random, depth + 1)]);
  // Through JSON, as a stored event's data and metadata come back (a `__proto__` key stays a key).
  return random() < 0.5 ? Object.fromEntries(entries) : JSON.parse(definition(Object.fromEntries(entries)));
}

describe('event hash: the canonical JSON an event is hashed as', () => {
  it('is the definition for plain data: sorted keys at every level, array-index keys first in numeric order', () => {
    const random = randomSource(25);
    for (let run = 0; run < 5000; run += 1) {
      const value = randomValue(random, 0);
      expect(canonicalJson(value), JSON.stringify(value)).to.equal(definition(value));
    }
    const manyKeys = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`k${(index * 7919) % 200}`, index]));
    expect(canonicalJson({ manyKeys })).to.equal(definition({ manyKeys }));
    expect(
      canonicalJson({ b: 1, 10: 'ten', a: { d: [3, undefined, { y: 1, x: 2 }], c: undefined }, 9: 'nine' }),
    ).to.equal('{"9":"nine","10":"ten","a":{"d":[3,null,{"x":2,"y":1}]},"b":1}');
  });

  it('is the definition for values that are not plain data: dates, toJSON, class instances, null prototypes', () => {
    class Amount {
      constructor(
        readonly value: number,
        readonly currency: string,
      ) {}
    }
    const nullPrototype = Object.assign(Object.create(null) as object, { b: 2, a: 1 });
    const values: unknown[] = [
      { at: new Date(0), z: 1 },
      { amount: { toJSON: () => ({ b: 1, a: 2 }) } },
      { amount: new Amount(100, 'EUR') },
      nullPrototype,
      { wrapped: nullPrototype },
      [new Date(1), { toJSON: () => 'text' }],
      { boxed: Object(1) as unknown, text: Object('x') as unknown },
    ];
    for (const value of values) expect(canonicalJson(value)).to.equal(definition(value));
    expect(() => canonicalJson({ big: BigInt(1) })).to.throw(TypeError);
  });

  it('hashes data as a reader gets it back from its JSON, plain or not', () => {
    const random = randomSource(7);
    const notPlain: unknown[] = [
      { at: new Date(0) },
      { boxed: Object('text') as unknown },
      { amount: { toJSON: () => ({ b: 1, a: 2 }) } },
      { list: [1, Object(2) as unknown] },
      JSON.parse('{"__proto__":{"b":1,"a":2}}'),
    ];
    const values = [...Array.from({ length: 3000 }, () => ({ value: randomValue(random, 0) })), ...notPlain];
    for (const value of values) {
      const stored = JSON.stringify(value);
      expect(canonicalJson(asStored(value, stored)), stored).to.equal(canonicalJson(JSON.parse(stored)));
    }
  });

  it('hashes an event as it always has: stored hashes stay valid', () => {
    const event = {
      streamId: 'charge-char_golden',
      revision: 0,
      id: 'evt_golden',
      type: 'ChargeSucceeded',
      data: {
        amount: 1999,
        currency: 'EUR',
        card: { last4: '4242', brand: 'Visa' },
        metadata: { b: 'x', '10': 'ten', '9': 'nine', é: 'accent', a: null },
        refunds: [],
        captured: true,
      },
      metadata: { accountId: 'acct_1', mode: 'test' as const, occurredAt: '2026-11-27T08:00:00.000Z', actor: 'key_1' },
    };
    expect(eventHash(GENESIS_HASH, event)).to.equal('c413f4e315da1d340fd4c00e1bb34f9777dbe9c8429c6e12b82786cf80c90664');
  });
});
