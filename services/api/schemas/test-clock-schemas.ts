import { z } from 'zod';
import { p } from '../../../packages/http/params.ts';

export const createTestClockBody = p.object({
  frozenTime: p.timestamp({ description: 'The time the clock starts at' }),
  name: p.string({ max: 255, description: 'Free text' }).optional(),
});

export const advanceTestClockBody = p.object({
  frozenTime: p.timestamp({ description: 'The new time: later than the current one' }),
});

export const listTestClocksQuery = p.listQuery({
  deleted: p.bool({ description: 'true lists only deleted test clocks; default false' }).optional(),
});

export const testClockIdParams = z.object({ testClockId: z.string().meta({ description: 'Test clock id (clock_…)' }) });

export const testClockSchema = z
  .object({
    id: z.string(),
    created: z.number().int(),
    objectType: z.literal('testClock'),
    frozenTime: z.number().int(),
    status: z.enum(['ready', 'advancing']).meta({ description: 'advancing while the work due up to frozenTime runs' }),
    name: z.string().nullable(),
    deleted: z.literal(true).optional(),
  })
  .meta({ id: 'TestClock' });
