import { Link } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";
import type { OrderFollowUp } from "~/modules/payments/order-follow-up.server";

/** The way from the payment or thank-you page to the order in the cabinet (ADR 070). */
export function OrderFollowUpNote({ followUp }: { followUp: OrderFollowUp }) {
  const { t } = useTranslation();
  if (followUp.kind === "open")
    return (
      <p className="follow-up">
        <Link to={followUp.href} className="button">
          {t("cabinet.followUp.open")}
        </Link>
      </p>
    );
  return (
    <div className="card follow-up" role="status">
      {followUp.kind === "sent" ? <p>{t("cabinet.followUp.sent", { email: followUp.to })}</p> : null}
      <p className="small muted">
        {followUp.kind === "sent" ? t("cabinet.followUp.noMail") : t("cabinet.followUp.signInText")}{" "}
        <Link to={followUp.signIn}>{t("cabinet.followUp.signIn")}</Link>
      </p>
    </div>
  );
}
