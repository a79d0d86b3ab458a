/** Back-office lists page on the server, this many rows at a time. */
export const ADMIN_PAGE_SIZE = 25;
