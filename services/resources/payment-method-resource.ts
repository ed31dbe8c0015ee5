import {
  paymentMethodResource,
  paymentMethodEventTypes,
} from '../../packages/domain/payment-method/payment-method-events.ts';
import { PaymentMethodCommands } from '../../packages/commands/payment-method-commands.ts';
import { PaymentMethodChargeCommands } from '../../packages/commands/payment-method-charge-commands.ts';
import { paymentMethodReadSide } from '../../projections/resources/payment-method-read-side.ts';
import { paymentMethodRoutes } from '../api/routes/payment-method-routes.ts';
import { paymentMethodsCollection } from '../../projections/payment-methods-projection.ts';
import { paymentMethodSchema } from '../api/schemas/payment-method-schemas.ts';
import { resourceModule, resourceObjects } from './resource-module.ts';

declare module '../commands.ts' {
  interface Commands {
    readonly paymentMethods: PaymentMethodCommands;
    /** Charges paid with a payment method: pending until the payer completes them at the provider. */
    readonly paymentMethodCharges: PaymentMethodChargeCommands;
  }
}

export const paymentMethodModule = resourceModule({
  identity: paymentMethodResource,
  events: paymentMethodEventTypes,
  readSide: paymentMethodReadSide,
  objects: resourceObjects({
    collection: paymentMethodsCollection,
    schema: paymentMethodSchema,
    folded: paymentMethodEventTypes,
  }),
  commands: {
    paymentMethods: (wiring) => new PaymentMethodCommands(wiring.aggregates, wiring.commands.cardSources),
    paymentMethodCharges: (wiring) =>
      new PaymentMethodChargeCommands(wiring.aggregates, wiring.commands.paymentMethods, {
        expirySeconds: wiring.config.paymentMethodChargeExpirySeconds,
        processingDelayMs: wiring.config.paymentMethodProcessingDelayMs,
      }),
  },
  routes: paymentMethodRoutes,
});
