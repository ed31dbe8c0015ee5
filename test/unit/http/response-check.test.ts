import { expect } from 'chai';
import { z } from 'zod';
import { defineRoute } from '../../../packages/http/route.ts';
import { responseSchemaViolations } from '../../../packages/http/response-check.ts';
import { customerSchema } from '../../../services/api/schemas/customer-schemas.ts';
import { eventSchemas } from '../../../services/api/schemas/event-schemas.ts';
import { publicEventCatalog } from '../../../services/resources/registries.ts';
import { call, startToyApi, widgetSchema, type ToyApi } from './support/toy-api.ts';

const { eventSchema } = eventSchemas(publicEventCatalog);

const gadgetSchema = z.object({
  id: z.string(),
  objectType: z.literal('gadget'),
  parts: z.array(z.object({ name: z.string() })),
  owner: z.object({ email: z.string() }).nullable(),
  metadata: z.record(z.string(), z.string()).optional(),
});

describe('response schema checks', () => {
  describe('responseSchemaViolations', () => {
    const gadget = { id: 'g_1', objectType: 'gadget', parts: [{ name: 'cog' }], owner: null };

    it('accepts an answer with exactly the declared fields, free-form records included', () => {
      expect(responseSchemaViolations(gadgetSchema, gadget)).to.deep.equal([]);
      expect(responseSchemaViolations(gadgetSchema, { ...gadget, metadata: { anyKey: 'v' } })).to.deep.equal([]);
    });

    it('names every field the schema does not declare, at any depth', () => {
      const answer = {
        ...gadget,
        colour: 'red',
        parts: [{ name: 'cog' }, { name: 'gear', teeth: 12 }],
        owner: { email: 'a@example.com', phone: '1' },
      };
      expect(responseSchemaViolations(gadgetSchema, answer)).to.have.members([
        'colour: not in the response schema',
        'parts.1.teeth: not in the response schema',
        'owner.phone: not in the response schema',
      ]);
    });

    it('names values the schema does not allow, as clients receive them', () => {
      expect(responseSchemaViolations(gadgetSchema, { ...gadget, objectType: 'widget' })).to.have.length(1);
      expect(responseSchemaViolations(gadgetSchema, { ...gadget, owner: undefined })[0]).to.match(/^owner: /);
      // Fields holding undefined are not sent at all: no violation for an optional one.
      expect(responseSchemaViolations(gadgetSchema, { ...gadget, metadata: undefined })).to.deep.equal([]);
    });
  });

  describe('public events', () => {
    const customer = {
      id: 'cust_1',
      created: 1,
      objectType: 'customer',
      email: 'a@example.com',
      description: null,
      defaultCardId: null,
      cards: [],
      metadata: {},
    };
    const event = {
      id: 'event_1',
      created: 1,
      objectType: 'event',
      type: 'CUSTOMER_CREATED',
      data: customer,
      log: 'log_1',
    };

    it("checks an event's data against the schema of its object type", () => {
      expect(responseSchemaViolations(customerSchema, customer)).to.deep.equal([]);
      expect(responseSchemaViolations(eventSchema, event)).to.deep.equal([]);
      expect(responseSchemaViolations(eventSchema, { ...event, data: { ...customer, tier: 'gold' } })).to.deep.equal([
        'data.tier: not in the response schema',
      ]);
      expect(
        responseSchemaViolations(eventSchema, { ...event, data: { ...customer, objectType: 'gadget' } }),
      ).to.have.length(1);
    });
  });

  describe('in the HTTP kit', () => {
    let strict: ToyApi;
    let lenient: ToyApi;
    const routes = () => [
      defineRoute({
        method: 'get',
        path: '/stray-widget',
        summary: 'A widget with a field its schema does not know',
        tag: 'Widgets',
        response: widgetSchema,
        handler: async () => ({ id: 'wid_1', objectType: 'widget', amount: 1, currency: 'EUR', colour: 'red' }),
      }),
      defineRoute({
        method: 'get',
        path: '/exact-widget',
        summary: 'A widget exactly as documented',
        tag: 'Widgets',
        response: widgetSchema,
        handler: async () => ({ id: 'wid_2', objectType: 'widget', amount: 2, currency: 'EUR' }),
      }),
    ];

    before(async () => {
      strict = await startToyApi({ strictResponses: true, routes });
      lenient = await startToyApi({ routes });
    });

    after(async () => {
      await strict.close();
      await lenient.close();
    });

    it('answers a loud 500 naming the unknown field, and logs it', async () => {
      const res = await call(strict, 'GET', '/stray-widget');
      expect(res.status).to.equal(500);
      expect(res.body.error.type).to.equal('gateway_error');
      expect(res.body.error.message).to.include('GET /stray-widget').and.include('colour: not in the response schema');
      const logged = strict.logs.find((line) => line.message === 'Response does not match its schema');
      expect(logged).to.deep.include({
        route: 'GET /stray-widget',
        violations: ['colour: not in the response schema'],
      });
    });

    it('lets answers matching their schema through unchanged', async () => {
      const res = await call(strict, 'GET', '/exact-widget');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ id: 'wid_2', objectType: 'widget', amount: 2, currency: 'EUR' });
    });

    it('checks nothing when the setting is off (production)', async () => {
      const res = await call(lenient, 'GET', '/stray-widget');
      expect(res.status).to.equal(200);
      expect(res.body.colour).to.equal('red');
    });
  });
});
