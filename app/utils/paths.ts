/**
 * Every internal URL of the product, built in one place: routes, redirects, `Link to=`, form
 * actions, notification links and e-mail links. A URL typed by hand elsewhere is how a notification
 * once pointed to `/admin?tab=pagos`, a tab the panel never knew.
 */

type Query = Record<string, string | number | null | undefined>;

/** `path?query` without empty parameters. */
function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== null && value !== undefined && value !== "") params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

export const paths = {
  home: () => "/",
  catalogue: (categoryId?: number) =>
    `${withQuery("/", { categoria: categoryId })}#catalogo` as const,
  contact: (query?: { sent?: boolean }) =>
    withQuery("/contact", { enviado: query?.sent ? 1 : null }),
  terms: () => "/terms",
  privacy: () => "/privacy",
  profile: () => "/profile",
  notifications: (page?: number) =>
    withQuery("/notifications", { page: page && page > 1 ? page : null }),

  signIn: (redirectTo?: string | null, { expired = false } = {}) =>
    withQuery("/auth", { redirectTo, sesion: expired ? "expirada" : null }),
  signUp: () => "/auth/signup",
  signOut: () => "/auth/logout",
  forgotPassword: () => "/auth/forgot",
  resetPassword: (token: string) => withQuery("/auth/reset", { token }),
  verifyEmail: (token: string) => withQuery("/auth/verify", { token }),

  buyer: {
    home: () => "/buyer",
    quotes: (query?: Query) => withQuery("/buyer/quotes", query),
    newQuote: () => "/buyer/quotes/new",
    quote: (id: number) => `/buyer/quotes/${id}`,
    editQuote: (id: number) => `/buyer/quotes/${id}/edit`,
    cancelQuote: (id: number) => `/buyer/quotes/${id}/cancel`,
    payments: () => "/buyer/payments",
    newPayment: (requestId: number) => withQuery("/buyer/payments/new", { quote: requestId }),
    rewards: (query?: { redeem?: number }) =>
      withQuery("/buyer/rewards", { canjear: query?.redeem }),
  },

  partner: {
    home: () => "/partner",
    assignments: (query?: Query) => withQuery("/partner/assignments", query),
    assignment: (requestId: number) => `/partner/assignments/${requestId}`,
    quoteForm: (requestId: number) => `/partner/assignments/${requestId}/quote`,
    decline: (requestId: number) => `/partner/assignments/${requestId}/decline`,
    quotes: () => "/partner/quotes",
    profile: () => "/partner/profile",
  },

  admin: {
    home: () => "/admin",
    quotes: (query?: Query) => withQuery("/admin/quotes", query),
    /**
     * The quotes list as a CSV file, with the list's filters (`q`, `status`, `deadline`, `desde`,
     * `hasta`) and sort (`orden`).
     */
    quotesCsv: (query?: Query) => withQuery("/admin/quotes.csv", query),
    quote: (id: number, section?: "asignar-socios") =>
      `/admin/quotes/${id}${section ? `#${section}` : ""}`,
    assign: (id: number) => `/admin/quotes/${id}/assign`,
    officialQuote: (id: number) => `/admin/quotes/${id}/official-quote`,
    revise: (id: number) => `/admin/quotes/${id}/revise`,
    comparisonCsv: (id: number) => `/admin/quotes/${id}/comparison.csv`,
    buyerApproval: (id: number) => `/admin/quotes/${id}/buyer-approval`,
    status: (id: number) => `/admin/quotes/${id}/status`,
    notes: (id: number) => `/admin/quotes/${id}/notes`,
    withdraw: (id: number) => `/admin/quotes/${id}/withdraw`,
    deadline: (id: number) => `/admin/quotes/${id}/deadline`,
    reopen: (id: number) => `/admin/quotes/${id}/reopen`,
    payments: (query?: Query) => withQuery("/admin/payments", query),
    /** The payments list as a CSV file, with the list's filters and sort (`desde`, `orden`...). */
    paymentsCsv: (query?: Query) => withQuery("/admin/payments.csv", query),
    users: () => "/admin/users",
    /** The users list as a CSV file, with the list's filters and sort (`role`, `desde`, `orden`...). */
    usersCsv: (query?: Query) => withQuery("/admin/users.csv", query),
    partners: () => "/admin/partners",
    products: () => "/admin/products",
    newProduct: () => "/admin/products/new",
    product: (id: number) => `/admin/products/${id}`,
    deleteProduct: (id: number) => `/admin/products/${id}/delete`,
    categories: () => "/admin/categories",
    analytics: () => "/admin/analytics",
    contacts: () => "/admin/contacts",
    /** The contact messages as a CSV file, with the list's search (`q`). */
    contactsCsv: (query?: Query) => withQuery("/admin/contacts.csv", query),
    settings: () => "/admin/settings",
    redemptions: (query?: Query) => withQuery("/admin/redemptions", query),
    system: () => "/admin/system",
  },

  /**
   * One conversation of a request (`thread`: "comprador" or "socio-<partner id>"): its page, with
   * older messages before `before`, and where its forms post.
   */
  thread: (requestId: number, thread: string, query?: { before?: number | null }) =>
    withQuery(`/threads/${requestId}/${thread}`, { antes: query?.before }),

  files: {
    request: (requestId: number) => `/files/requests/${requestId}`,
    officialQuote: (requestId: number) => `/files/official-quotes/${requestId}`,
    /** The PDF of one official quote version (`official_quotes.id`), current or superseded. */
    officialQuoteVersion: (officialQuoteId: number) =>
      `/files/official-quote-versions/${officialQuoteId}`,
    partnerQuote: (partnerQuoteId: number) => `/files/partner-quotes/${partnerQuoteId}`,
    payment: (paymentId: number) => `/files/payments/${paymentId}`,
    /** The receipt PDF of a confirmed payment. */
    receipt: (paymentId: number) => `/files/receipts/${paymentId}`,
    productImage: (productId: number) => `/files/products/${productId}`,
    /** The attachment of a message in a request's conversation. */
    message: (messageId: number) => `/files/messages/${messageId}`,
  },
} as const;
