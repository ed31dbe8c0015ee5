const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

/** A size as operators read it: KiB below a mebibyte, MiB below a gibibyte, GiB above. */
export function byteSize(bytes: number): string {
  if (bytes < MIB) return `${(bytes / KIB).toFixed(1)} KiB`;
  if (bytes < GIB) return `${(bytes / MIB).toFixed(1)} MiB`;
  return `${(bytes / GIB).toFixed(2)} GiB`;
}
