import { expect } from 'chai';
import { z } from 'zod';
import type { ChargeEvent } from '../../../packages/domain/charge/charge-events.ts';
import { chargesCollection, chargesProjection } from '../../../projections/charges-projection.ts';
import { customersCollection, customersProjection } from '../../../projections/customers-projection.ts';
import { publicObject } from '../../../projections/views/object-view.ts';
import type { PublicObject } from '../../../projections/views/object-view.ts';
import { cardSchema } from '../../../services/api/schemas/card-schemas.ts';
import { chargeSchema, refundSchema } from '../../../services/api/schemas/charge-schemas.ts';
import { customerSchema } from '../../../services/api/schemas/customer-schemas.ts';
import { cardAdded, chargeSucceeded, customerCreated } from './fixtures.ts';
import { inStream, projectionSpec } from './projection-spec.ts';
import { resourceModules } from '../../../services/resources/index.ts';
import type { ResourceObjects, ResponseSchema } from '../../../services/resources/resource-module.ts';

/** Keys of a union member or of any member (for the blacklist rule's one-of attributes). */
type KeysOf<T> = T extends unknown ? keyof T : never;

/**
 * What a stored document shows clients matches the response schema: the same fields, no more and
 * no fewer (`fields`), and every value the document may hold is one the schema accepts (`values`),
 * except for the `Unchecked` fields, whose values the document types more loosely than the schema.
 */
type Conforms<Doc, Schema extends z.ZodType, Unchecked extends string = never> = {
  fields: [
    Exclude<KeysOf<PublicObject<Doc>>, KeysOf<z.output<Schema>>>,
    Exclude<KeysOf<z.output<Schema>>, KeysOf<PublicObject<Doc>>>,
  ] extends [never, never]
    ? true
    : {
        onlyInDocument: Exclude<KeysOf<PublicObject<Doc>>, KeysOf<z.output<Schema>>>;
        onlyInSchema: Exclude<KeysOf<z.output<Schema>>, KeysOf<PublicObject<Doc>>>;
      };
  values: Json<Omit<PublicObject<Doc>, Unchecked>> extends Omit<z.output<Schema>, Unchecked>
    ? true
    : { mismatched: Mismatched<Json<Omit<PublicObject<Doc>, Unchecked>>, z.output<Schema>> };
};

/** A value as JSON carries it: named interfaces become plain object types (as records are). */
type Json<T> = T extends (infer Item)[] ? Json<Item>[] : T extends object ? { [Key in keyof T]: Json<T[Key]> } : T;

/** Fields whose document values the schema does not accept. */
type Mismatched<Shown, Schema> = Shown extends unknown
  ? {
      [Field in keyof Shown]: Field extends keyof Schema ? (Shown[Field] extends Schema[Field] ? never : Field) : never;
    }[keyof Shown]
  : never;

/** The zod schema of a response schema, made from the public event catalog or not. */
type SchemaOf<Schema extends ResponseSchema> = Schema extends z.ZodType
  ? Schema
  : Schema extends (...args: never[]) => infer Made
    ? Made
    : never;

/** Fields whose values the document holds otherwise than the response shows them, by resource. */
interface Unchecked {
  // Public event types are derived from every resource's read side, which the views cannot
  // import; requests are validated against them on the way in.
  webhookEndpoint: 'events';
  webhookDelivery: 'eventType';
  event: 'type' | 'data';
  // Stored as the charge's id; GET /disputes renders the charge object in its place.
  dispute: 'charge';
}

/** Fields the routes add to the stored document, by resource. */
interface AddedByRoutes {
  // The download address depends on where the service is reached (`file-routes.ts`).
  file: { url: string };
}

/** Every listed resource's check, by name; passed for a resource the API does not expose (`objects: null`). */
type Checks<List extends readonly unknown[]> = {
  [Index in keyof List as Index extends `${number}` ? NameOf<List[Index]> : never]: List[Index] extends {
    objects: ResourceObjects<infer Doc, infer Schema>;
  }
    ? Conforms<Doc & AddedOf<NameOf<List[Index]>>, SchemaOf<Schema>, UncheckedOf<NameOf<List[Index]>>>
    : { fields: true; values: true };
};

type NameOf<Module> = Module extends { identity: { name: infer Name extends string } } ? Name : never;
type UncheckedOf<Name extends string> = Name extends keyof Unchecked ? Unchecked[Name] : never;
type AddedOf<Name extends string> = Name extends keyof AddedByRoutes ? AddedByRoutes[Name] : unknown;

/** Compiles only when both checks hold for every resource; the error names the resource and the fields. */
const conforms = <_Check extends Record<string, { fields: true; values: true }>>(names: readonly string[]) => names;

/** Checked when compiling (`npm run typecheck`); the names at run time show what is covered. */
const checked = conforms<Checks<typeof resourceModules>>(resourceModules.map(({ identity }) => identity.name));

describe('stored documents and response schemas', () => {
  it('agree on every field of every object the read models store (checked when compiling)', () => {
    expect(checked).to.deep.equal(resourceModules.map(({ identity }) => identity.name));
  });

  describe('a charge with a pending refund and a dispute', () => {
    const spec = projectionSpec(chargesProjection);

    it('is exactly what the Charge schema describes, nothing more', async () => {
      const charge = inStream('charge-char_1');
      await spec().given(
        charge(chargeSucceeded({ customerId: 'cust_1', type: 'customer_initiated' })),
        charge<ChargeEvent>({
          type: 'RefundRequested',
          data: { chargeId: 'char_1', refundId: 're_1', amount: 100, currency: 'EUR', reason: null, metadata: {} },
        }),
        charge<ChargeEvent>({
          type: 'DisputeOpened',
          data: {
            chargeId: 'char_1',
            disputeId: 'dp_1',
            amount: 1000,
            currency: 'EUR',
            reason: 'GENERAL',
            status: 'CHARGEBACK_NEW',
          },
        }),
      );
      const shown = publicObject((await spec().get(chargesCollection, 'char_1'))!);
      const strict = chargeSchema.extend({ refunds: z.array(refundSchema.strict()) }).strict();
      expect(strict.safeParse(shown).error?.issues ?? []).to.deep.equal([]);
    });
  });

  describe('a customer with a saved card', () => {
    const spec = projectionSpec(customersProjection);

    it('is exactly what the Customer schema describes, nothing more', async () => {
      const customer = inStream('customer-cust_1');
      await spec().given(customer(customerCreated()), customer(cardAdded('card_1')));
      const shown = publicObject((await spec().get(customersCollection, 'cust_1'))!);
      const strict = customerSchema.extend({ cards: z.array(cardSchema.strict()) }).strict();
      expect(strict.safeParse(shown).error?.issues ?? []).to.deep.equal([]);
    });
  });
});
