import type { Processor, ProcessorSettings } from './processor.ts';
import { Shift4Processor } from './shift4/shift4-processor.ts';
import { StripeProcessor } from './stripe/stripe-processor.ts';

/** The adapter of a processor's API. */
export function processorAdapter(settings: ProcessorSettings): Processor {
  switch (settings.kind) {
    case 'shift4':
      return new Shift4Processor(settings);
    case 'stripe':
      return new StripeProcessor(settings);
  }
}
