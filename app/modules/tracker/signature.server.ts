import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The result page of a sent task is a GET (POST-redirect-GET); its link carries the task id signed
 * with the session secret, so the page shows only tasks this back-office created for this order.
 */
export function taskSignature(secret: string, orderId: string, taskId: string): string {
  return createHmac("sha256", secret).update(`tracker-task:${orderId}:${taskId}`).digest("base64url").slice(0, 32);
}

export function isTaskSignature(secret: string, orderId: string, taskId: string, signature: string | null): boolean {
  if (!signature) return false;
  const expected = Buffer.from(taskSignature(secret, orderId, taskId));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
