import { z, type ZodType } from 'zod';

/** `{ list, hasMore }` of a list endpoint. */
export const listOf = (item: ZodType) => z.object({ list: z.array(item), hasMore: z.boolean() });

/** `{ id }` of a delete. */
export const deletedSchema = z.object({ id: z.string() }).meta({ id: 'Deleted' });
