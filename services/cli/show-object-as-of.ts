import { publicObject } from '../../projections/views/object-view.ts';
import type { ObjectStreams } from '../api/object-streams.ts';

/**
 * For auditors: the object as it stood at a Unix time, folded from its stream by the view its read
 * model is built with (so it is what GET with `asOf` answers). False when it did not exist then.
 */
export async function showObjectAsOf(
  streams: ObjectStreams,
  objectId: string,
  asOf: number,
  write: (line: string) => void,
): Promise<boolean> {
  const tenant = await streams.tenantOf(objectId);
  const object = tenant && (await streams.objectAsOf(objectId, tenant, asOf));
  if (!object) return false;
  write(JSON.stringify(publicObject(object), null, 2));
  return true;
}
