import { createHmac } from "node:crypto";
import type { PaymentProviderId } from "~db/schema";
import type { AppConfig, Market } from "~/modules/config/config.server";
import type { DB } from "~/modules/db/db.server";
import type { PaymentProvider } from "./provider";
import { SandboxPaymentProvider } from "./sandbox-provider.server";
import { StripePaymentProvider } from "./stripe-provider.server";
import { YooKassaPaymentProvider } from "./yookassa-provider.server";

/** Which payment provider serves a market or an attempt; the only file that imports the providers. */

export class PaymentProviderUnavailableError extends Error {}

function sandboxSigningSecret(config: AppConfig) {
  return createHmac("sha256", config.secrets.SESSION_SECRET).update("sandbox-payment-notifications").digest("hex");
}

/** A provider by its id, when it is configured here (the sandbox never in strict mode). */
export function providerById(id: PaymentProviderId, config: AppConfig, db: DB): PaymentProvider | null {
  const { yookassa, stripe, sandbox, timeoutMs } = config.payments;
  if (id === "yookassa") return yookassa ? new YooKassaPaymentProvider({ ...yookassa, timeoutMs }) : null;
  if (id === "stripe") return stripe ? new StripePaymentProvider({ ...stripe, timeoutMs }) : null;
  return sandbox ? new SandboxPaymentProvider(db, sandboxSigningSecret(config)) : null;
}

/**
 * The provider of a market (DESIGN §3): YooKassa for domestic, Stripe for international, the
 * sandbox when neither is configured outside strict mode. Strict mode never gets the sandbox.
 */
export function paymentProviderFor(market: Market, config: AppConfig, db: DB): PaymentProvider {
  const real: PaymentProviderId = market === "domestic" ? "yookassa" : "stripe";
  const provider = providerById(real, config, db) ?? providerById("sandbox", config, db);
  if (!provider) throw new PaymentProviderUnavailableError(`no payment provider for the ${market} market`);
  return provider;
}

export function sandboxProvider(config: AppConfig, db: DB): SandboxPaymentProvider | null {
  const provider = providerById("sandbox", config, db);
  return provider instanceof SandboxPaymentProvider ? provider : null;
}
