// The time one query may take (spec section 7: a partial answer, `timed_out`,
// rather than a slow one). Every use case that reads the index passes it on.

/** Monthly indexes not started within this time are left unread: the answer is partial, `timed_out`. */
export const QUERY_BUDGET_MS = 2000;
