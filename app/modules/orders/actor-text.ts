import type { Translate } from "~/modules/i18n/translate";

/**
 * Who made a change, in the reader's language. History keeps its actor as recorded (ADR 062's
 * labels: an e-mail, "back-office password (ip)", "packer (ip)", "anonymous browser", a payment
 * provider with its payment's id, "invoice №N (who)"), so old entries read the same way; an e-mail
 * or an unknown label is shown as it is.
 */

const PROVIDERS = ["sandbox", "yookassa", "stripe"] as const;

const RULES: Array<[RegExp, (match: RegExpMatchArray, t: Translate) => string]> = [
  [/^back-office password \((.+)\)$/, (match, t) => t("bo.actors.password", { address: match[1]! })],
  [/^packer \((.+)\)$/, (match, t) => t("bo.actors.packer", { address: match[1]! })],
  [/^guest \((.+)\)$/, (match, t) => t("bo.actors.guest", { address: match[1]! })],
  [/^anonymous browser$/, (_match, t) => t("bo.actors.anonymous")],
  [/^invoice №(\S+) \((.+)\)$/, (match, t) => t("bo.actors.invoice", { number: match[1]!, by: actorText(t, match[2]!) })],
  [
    new RegExp(`^(${PROVIDERS.join("|")})(?: (\\S+))?$`),
    (match, t) => (match[2] ? t("bo.actors.payment", { provider: t(`bo.actors.providers.${match[1]}`), id: match[2] }) : t(`bo.actors.providers.${match[1]}`)),
  ],
];

export function actorText(t: Translate, label: string): string {
  for (const [pattern, text] of RULES) {
    const match = label.match(pattern);
    if (match) return text(match, t);
  }
  return label;
}
