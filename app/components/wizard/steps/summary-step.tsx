import { isFor, isInFlight, type UploadItem } from "~/components/wizard/resumable-upload";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { appliedDiscount, calculateOrderPrice } from "~/modules/pricing/calculate";
import { lineText } from "~/modules/pricing/line-texts";
import { type StepId, stepAt } from "~/modules/wizard/steps";
import type { StepProps } from "./types";

type FileKind = "matrix" | "aligners" | "retainer";

/**
 * The summary counts what was chosen (ADR 054): the stored files, and with JavaScript the files of
 * this page still going up, priced by the same calculation the server runs on the same input. The
 * server prices again from the stored files before payment, which waits for the files in flight.
 */
export function SummaryStep({ data, uploads = [] }: StepProps & { uploads?: UploadItem[] }) {
  const { t, i18n } = useTranslation();
  const order = data.order!;
  const inFlight = uploads.filter(isInFlight);
  const coming = (patientId: string, type: FileKind) => inFlight.filter((item) => isFor(item, { patientId, type })).length;
  const skipped = (patient: (typeof data.patients)[number], type: FileKind) =>
    type === "matrix" ? patient.skips.skipMatrix : type === "aligners" ? patient.skips.skipAligners : patient.skips.skipRetainers;
  const count = (patient: (typeof data.patients)[number], type: FileKind) => (skipped(patient, type) ? 0 : patient.files[type].length + coming(patient.id, type));
  const kinds = ["matrix", "aligners", "retainer"] as const;
  const counted = data.patients.reduce((sum, patient) => sum + kinds.reduce((n, type) => n + (skipped(patient, type) ? 0 : coming(patient.id, type)), 0), 0);
  const price =
    counted && data.priceInput
      ? calculateOrderPrice({
          ...data.priceInput,
          patients: data.priceInput.patients.map((input) => {
            const patient = data.patients.find(({ id }) => id === input.id);
            if (!patient) return input;
            return { ...input, alignerFiles: count(patient, "aligners"), matrixFiles: count(patient, "matrix"), retainerFiles: count(patient, "retainer") };
          }),
        })
      : data.price;
  // A discount the minimum order cancels is not shown as a saving; the fee is shown as it tops up (issue 57).
  const applied = price ? appliedDiscount(price) : null;
  // A part the doctor skipped says so, not merely that it holds nothing.
  const none = (patient: (typeof data.patients)[number], type: FileKind) => t(skipped(patient, type) ? "wizard.summary.skipped" : "wizard.summary.none");
  const money = (amount: number) => formatMoney(amount, order.currency, i18n.language);
  // "изменить" beside each part opens its step, whose "next" leads back here (ADR 060); a draft's only.
  const change = (step: StepId, what: string, patientId?: string) =>
    order.status === "draft" ? (
      <button type="submit" name="intent" value={`change:${step}${patientId ? `:${patientId}` : ""}`} className="link-button summary-change" formNoValidate aria-label={`${t("wizard.summary.change")}: ${what}`}>
        {t("wizard.summary.change")}
      </button>
    ) : null;
  return (
    <div className="stack">
      <p>
        {t("wizard.summary.number")} <strong>{order.number}</strong>
        {order.status !== "draft" ? <span className={`badge badge-${order.status}`}> {t(`orderStatus.${order.status}`)}</span> : null}
      </p>
      {data.openItems.length ? (
        // Everything that still stops payment, named open, each with the way there and back (ADR 087).
        <section className="notice summary-open" aria-labelledby="summary-open-title">
          <h3 id="summary-open-title">{t("wizard.summary.openTitle")}</h3>
          <ul className="plain-list">
            {data.openItems.map((item, index) => {
              const patient = data.patients.find(({ id }) => id === item.patientId);
              const what = `${patient ? `${patient.name}: ` : ""}${t(item.error)}`;
              return (
                <li key={index}>
                  {what}
                  {item.files ? <span className="summary-open-files"> {t("wizard.summary.openFiles", { names: item.files.join(", ") })}</span> : null}{" "}
                  <button type="submit" name="intent" value={`change:${stepAt(item.step).id}${item.patientId ? `:${item.patientId}` : ""}`} className="link-button" formNoValidate aria-label={`${t("wizard.summary.openGo")}: ${what}`}>
                    {t("wizard.summary.openGo")}
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      <dl className="summary-contacts">
        <dt>{t("wizard.fields.email")}</dt>
        <dd>{order.email ?? "—"}</dd>
        <dt>{t("wizard.fields.phone")}</dt>
        <dd>
          {order.phoneShown ?? "—"} {change("contacts", t("wizard.titles.contacts"))}
        </dd>
        <dt>{t("wizard.fields.fullName")}</dt>
        <dd>{order.fullName ?? "—"}</dd>
        <dt>{t("wizard.fields.address")}</dt>
        <dd>
          {order.address ?? "—"} {change("delivery", t("wizard.titles.delivery"))}
        </dd>
      </dl>
      {data.patients.map((patient) => (
        <section key={patient.id} className="card summary-patient">
          <h3>
            {patient.name} <span className="muted small">{patient.folder}</span> {change("patient", t("wizard.titles.patient"))}
          </h3>
          <ul className="plain-list small">
            <li>
              {t("wizard.summary.matrix")}:{" "}
              {!count(patient, "matrix")
                ? none(patient, "matrix")
                : `${t(patient.matrixType === "soft" ? "wizard.matrix.soft" : "wizard.matrix.hard")} · ${t("wizard.summary.files", {
                    count: count(patient, "matrix"),
                  })}`}{" "}
              {change("matrix", `${patient.name}, ${t("wizard.summary.matrix")}`, patient.id)}
            </li>
            <SetAsideNote patient={patient} type="matrix" part={t("wizard.summary.matrix")} draft={order.status === "draft"} />
            <li>
              {t("wizard.summary.aligners")}:{" "}
              {!count(patient, "aligners")
                ? none(patient, "aligners")
                : `${t(patient.materialType === "three_layer" ? "wizard.material.threeLayer" : "wizard.material.singleLayer")} · ${t(
                    patient.cutType === "straight" ? "wizard.cut.straight" : "wizard.cut.wavy",
                  )} · ${t("wizard.summary.files", {
                    count: count(patient, "aligners"),
                  })}`}{" "}
              {change("aligners", `${patient.name}, ${t("wizard.summary.aligners")}`, patient.id)}
            </li>
            <SetAsideNote patient={patient} type="aligners" part={t("wizard.summary.aligners")} draft={order.status === "draft"} />
            <li>
              {t("wizard.summary.retainers")}:{" "}
              {!count(patient, "retainer")
                ? none(patient, "retainer")
                : t("wizard.summary.files", {
                    count: count(patient, "retainer"),
                  })}{" "}
              {change("retainers", `${patient.name}, ${t("wizard.summary.retainers")}`, patient.id)}
            </li>
            <SetAsideNote patient={patient} type="retainer" part={t("wizard.summary.retainers")} draft={order.status === "draft"} />
            {kinds.some((type) => count(patient, type) > 0) ? (
              <li>
                {/* Each file's jaw and step as its bag label prints them (ADR 058). */}
                <details className="summary-files" open={kinds.some((type) => !skipped(patient, type) && patient.files[type].some((file) => !file.confirmed)) || undefined}>
                  <summary>{t("wizard.summary.filesList")}</summary>
                  <ul className="plain-list">
                    {kinds.flatMap((type) =>
                      skipped(patient, type)
                        ? []
                        : patient.files[type].map((file) => (
                            <li key={file.path}>
                              {file.name} —{" "}
                              {file.confirmed && file.jaw
                                ? `${t(file.jaw === "upper" ? "wizard.files.upper" : "wizard.files.lower")}${file.stepNumber ? `, ${t("wizard.files.step")} ${file.stepNumber}` : ""}`
                                : t("wizard.files.toConfirm")}
                            </li>
                          )),
                    )}
                  </ul>
                </details>
              </li>
            ) : null}
            {patient.comments ? (
              <li>
                {t("wizard.fields.additionalComments")}: {patient.comments} {change("cut", `${patient.name}, ${t("wizard.fields.additionalComments")}`, patient.id)}
              </li>
            ) : null}
          </ul>
        </section>
      ))}
      {price ? (
        <div className="table-wrap">
          <table className="price-table">
            <caption className="visually-hidden">{t("wizard.summary.priceCaption")}</caption>
            <tbody>
              {price.lines
                .filter((line) => line.kind !== "delivery" && line.kind !== "service_fee")
                .map((line, index) => (
                  <tr key={index}>
                    <th scope="row">{lineText(line.kind, t, line.patientName ?? "")}</th>
                    <td className="num muted">
                      {line.quantity} × {money(line.unitPrice)}
                    </td>
                    <td className="num">{money(line.amount)}</td>
                  </tr>
                ))}
              {price.discountAmount > 0 ? (
                applied!.applies === "none" ? (
                  <tr>
                    {/* The minimum order cancels the discount: it is said, never shown as a saving. */}
                    <th scope="row" colSpan={3} className="muted">
                      {t("wizard.summary.discountCancelled", { percent: price.discountPercent, amount: money(price.minimumOrder) })}
                    </th>
                  </tr>
                ) : (
                  <tr>
                    <th scope="row">
                      {t("wizard.summary.discount", {
                        percent: price.discountPercent,
                      })}
                      {applied!.applies === "partly" ? <div className="muted small">{t("wizard.summary.discountPartly", { amount: money(price.minimumOrder) })}</div> : null}
                    </th>
                    <td />
                    <td className="num">−{money(applied!.saving)}</td>
                  </tr>
                )
              ) : null}
              <tr>
                <th scope="row">{lineText("delivery", t)}</th>
                <td />
                <td className="num">{money(price.delivery)}</td>
              </tr>
              {applied!.serviceFee > 0 ? (
                <tr>
                  <th scope="row">
                    {lineText("service_fee", t)}
                    <div className="muted small">
                      {t("wizard.summary.serviceFeeNote", {
                        amount: money(price.minimumOrder),
                      })}
                    </div>
                  </th>
                  <td />
                  <td className="num">{money(applied!.serviceFee)}</td>
                </tr>
              ) : null}
              {price.note ? (
                <tr>
                  <th scope="row" colSpan={3} className="muted">
                    {price.note}
                  </th>
                </tr>
              ) : null}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{t("wizard.summary.total")}</th>
                <td />
                <td className="num total">{money(price.total)}</td>
              </tr>
            </tfoot>
          </table>
          {counted ? (
            <p className="muted small summary-in-flight" role="status">
              {t("wizard.summary.inFlightNote", { count: counted })}
            </p>
          ) : null}
        </div>
      ) : null}
      {data.personalOffer ? <p className="note">{t("wizard.personalOffer")} {t("wizard.firstOrderAtPayment")}</p> : null}
      {order.status === "pending" ? <p className="note">{t("wizard.summary.pendingNote")}</p> : null}
    </div>
  );
}

/**
 * A part's files a confirmed skip set aside, listed as not in the order with "Вернуть в заказ", and
 * a skipped part that came back, said before payment (ADR 087).
 */
function SetAsideNote({ patient, type, part, draft }: { patient: StepProps["data"]["patients"][number]; type: FileKind; part: string; draft: boolean }) {
  const { t } = useTranslation();
  const aside = patient.setAside[type];
  if (!aside.length && !patient.cameBack[type]) return null;
  return (
    <>
      {patient.cameBack[type] ? <li className="summary-came-back">{t("wizard.summary.cameBack", { part })}</li> : null}
      {aside.length ? (
        <li className="summary-set-aside">
          {t("wizard.summary.setAside", { count: aside.length })}: {aside.map((file) => file.name).join(", ")}{" "}
          {draft ? (
            <button type="submit" name="intent" value={`unskip:${type}:${patient.id}`} className="link-button" formNoValidate aria-label={`${t("wizard.buttons.unskip")}: ${patient.name}, ${part}`}>
              {t("wizard.buttons.unskip")}
            </button>
          ) : null}
        </li>
      ) : null}
    </>
  );
}
