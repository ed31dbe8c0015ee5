import type { Processor, ProcessorSettings } from './processor.ts';
import { Shift4Processor } from './shift4/shift4-processor.ts';

/** The adapter of a processor's API; null for a kind this build has no adapter for. */
export function processorAdapter(settings: ProcessorSettings): Processor | null {
  switch (settings.kind) {
    case 'shift4':
      return new Shift4Processor(settings);
    case 'stripe':
      return null;
  }
}
