import { useTranslation } from "~/components/i18n/i18n-context";
import type { Market } from "~/modules/market/market";
import { hasBackButton } from "~/modules/wizard/navigation";
import type { stepAt } from "~/modules/wizard/steps";

interface WizardNavProps {
  step: number;
  here: ReturnType<typeof stepAt>;
  frozen: boolean;
  busy: boolean;
  /** A file of this step is going up: a skip held while uploading waits (steps.ts). */
  uploading: boolean;
  /** The forward button's words, and why it is held (a text key), or null. */
  forward: { text: string; held: string | null };
  /** The summary's pay button: the form it posts, whether uploads still hold it, the market's words; null when the order cannot be paid. */
  payment: { form: string; waiting: boolean; market: Market } | null;
  /** A pending order can go back to editing. */
  editable: boolean;
}

/** The wizard's buttons under a step: back, back to the patient, skip, forward or pay, and why forward is held (ADR 057). */
export function WizardNav({ step, here, frozen, busy, uploading, forward, payment, editable }: WizardNavProps) {
  const { t } = useTranslation();
  return (
    <>
      <div className="wizard-nav">
        {hasBackButton(step) && !frozen ? (
          <button type="submit" name="intent" value="back" className="button button-secondary" formNoValidate>
            ← {t("wizard.buttons.back")}
          </button>
        ) : (
          <span />
        )}
        <div className="wizard-nav-right">
          {(here.perPatient || here.kind === "summary") && !frozen ? (
            <button type="submit" name="intent" value="back_to_patient" className="link-button" formNoValidate>
              {t("wizard.buttons.backToPatient")}
            </button>
          ) : null}
          {here.upload ? (
            <button type="submit" name="intent" value={here.upload.skip.intent} className="button button-secondary" formNoValidate disabled={uploading && here.upload.skip.heldWhileUploading}>
              {t("wizard.buttons.skip")}
            </button>
          ) : null}
          {here.kind !== "summary" ? (
            <button
              type="submit"
              name="intent"
              value="next"
              className="button"
              disabled={busy || forward.held !== null}
              aria-disabled={forward.held !== null || undefined}
              aria-describedby={forward.held ? "forward-held" : undefined}
            >
              {forward.text}
            </button>
          ) : payment ? (
            <button type="submit" name="intent" value="pay" className="button" disabled={busy || payment.waiting} form={payment.form}>
              {t(payment.market === "international" ? "wizard.buttons.payNow" : "wizard.buttons.pay")}
            </button>
          ) : null}
        </div>
      </div>
      {/* A disabled forward button says why beside it (ADR 057). */}
      {forward.held && here.kind !== "summary" && !frozen ? (
        <p id="forward-held" className="small muted forward-held">
          {t(forward.held)}
        </p>
      ) : null}
      {editable ? (
        <p className="small">
          <button type="submit" name="intent" value="edit" className="link-button" formNoValidate>
            {t("wizard.buttons.edit")}
          </button>
        </p>
      ) : null}
    </>
  );
}
