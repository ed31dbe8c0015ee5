/**
 * The embedded profile's databases in DATA_DIR (`docs/operations.md`): the event log and the
 * operational state store. The read store's files are named by `SqliteReadFiles`, the key files
 * by `KEY_FILES` (packages/vault/vault-key.ts).
 */
export const EVENT_LOG_FILE = 'events.sqlite';
export const STATE_STORE_FILE = 'state.sqlite';
