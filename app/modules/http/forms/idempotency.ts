/**
 * The header an enhanced post carries with a key of its own, the same on every resend (ADR 046): the
 * server answers a key it has seen with the first answer instead of acting again.
 */
export const RESEND_KEY_HEADER = "Idempotency-Key";

/** What a key may look like (the browser sends 128 random bits in hex). */
export const RESEND_KEY = /^[A-Za-z0-9_-]{16,64}$/;
