/**
 * The donor link's two paths, in a module of their own: the FAQ needs them without the donor
 * contract's schemas (its size budget).
 */

/** The portal page a donor link opens. */
export const donorMatchUpdatePath = (matchId: number | string) => `/portal/donor-match-update/${matchId}`;

/** The redirect a donor asks GET /api/auth/otp for (spec: "redirect=/donor-match-update/{di}"). */
export const donorLinkRedirect = (matchId: number | string) => `/donor-match-update/${matchId}`;
