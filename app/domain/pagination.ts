/** Page sizes of the server-paginated lists (shared by loaders and the Pagination links). */
export const REQUESTS_PAGE_SIZE = 20;
export const PAYMENTS_PAGE_SIZE = 20;
export const LEDGER_PAGE_SIZE = 20;
export const NOTIFICATIONS_PAGE_SIZE = 20;
