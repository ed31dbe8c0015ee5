/** The tenant scope: the fields every scoped read filters on. */
export const SCOPE_FIELDS = ['_accountId', '_mode'] as const;

/** Field names a filter or an index may use: they are written into queries. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function assertFieldName(field: string): void {
  if (!FIELD_NAME.test(field)) throw new TypeError(`Invalid field name: ${field}`);
}

/**
 * The list indexes of a collection's declared fields (each then followed by the sort key), the same
 * for every adapter: one per field, behind the tenant scope when the scope is declared too, the
 * scope's own index only when lists may filter on the scope alone (`scopeAloneListed`), each index
 * once.
 */
export function listIndexFields(declared: string[], scopeAloneListed: boolean): string[][] {
  const scoped = SCOPE_FIELDS.every((scopeField) => declared.includes(scopeField));
  const indexes = new Map<string, string[]>();
  for (const field of declared) {
    assertFieldName(field);
    const isScopeField = (SCOPE_FIELDS as readonly string[]).includes(field);
    if (scoped && isScopeField && !scopeAloneListed) continue;
    const fields = !scoped ? [field] : isScopeField ? [...SCOPE_FIELDS] : [...SCOPE_FIELDS, field];
    indexes.set(fields.join(','), fields);
  }
  return [...indexes.values()];
}
