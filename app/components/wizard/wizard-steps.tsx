import { Form, Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/modules/i18n/i18n-context";
import type { FileType } from "~db/schema";
import type { WizardLoaderData } from "~/modules/wizard/loader.server";
import { formatMoney } from "~/modules/money/format";
import { formatPriceSetAmount } from "~/modules/pricing/price-sets";
import { lineText } from "~/modules/pricing/calculate";
import { formatFileSize } from "~/modules/uploads/file-names";
import { ChoiceField, TextField } from "./fields";
import { ModelPreview, ScanInfo } from "./model-preview";
import { InterruptedUploads, type UploadItem, UploadProgress, useLiveSync } from "./resumable-upload";

export type StepData = WizardLoaderData;
export type Patient = StepData["patients"][number];

export interface StepProps {
  data: StepData;
  patient: Patient | null;
  errors: Record<string, string>;
  values: Record<string, string>;
}

/** Step 1: prices of the market, notes of the domestic market, a way to ask. */
export function TechnicalInfoStep({ data }: StepProps) {
  const { t, i18n } = useTranslation();
  const set = data.priceSet;
  const money = (amount: number) => formatPriceSetAmount(amount, set.currency, i18n.language);
  const rows: Array<[string, number, string]> = [
    ["wizard.prices.singleLayer", set.singleLayerMaterial, "wizard.products.singleLayer"],
    ["wizard.prices.threeLayer", set.threeLayerMaterial, "wizard.products.threeLayer"],
    ...(data.traits.softMatrix ? ([["wizard.prices.softMatrix", set.softMatrix, "wizard.products.softMatrix"]] as Array<[string, number, string]>) : []),
    ["wizard.prices.hardMatrix", set.hardMatrix, "wizard.products.hardMatrix"],
    ["wizard.prices.retainer", set.retainer, "wizard.products.retainer"],
    ["wizard.prices.delivery", set.delivery, "wizard.prices.deliveryNote"],
  ];
  return (
    <div className="stack">
      <p>{t("wizard.step1.intro")}</p>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">{t("wizard.step1.tableCaption")}</caption>
          <tbody>
            {rows.map(([label, amount, note]) => (
              <tr key={label}>
                <th scope="row">
                  {t(label)}
                  <div className="muted small">{t(note)}</div>
                </th>
                <td className="num">{money(amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data.traits.domesticNotices ? (
        <>
          <p className="note">
            {t("wizard.step1.minimumOrder", {
              amount: money(set.minimumOrder),
            })}
          </p>
          <p className="note">
            {t("wizard.step1.monthlyDiscount", {
              amount: money(set.monthlyThreshold),
            })}
          </p>
        </>
      ) : null}
      <p className="muted">{t("wizard.step1.leadTime")}</p>
    </div>
  );
}

export function ContactsStep({ data, errors, values }: StepProps) {
  const { t } = useTranslation();
  return (
    <div className="stack">
      <TextField name="email" type="email" label="wizard.fields.email" autoComplete="email" required defaultValue={values.email ?? data.order?.email} error={errors.email} />
      <TextField
        name="phone"
        type="tel"
        label="wizard.fields.phone"
        autoComplete="tel"
        required
        placeholder="+7 (___) ___-__-__"
        defaultValue={values.phone ?? data.order?.phone}
        error={errors.phone}
      />
      {data.personalOffer ? <p className="note">{t("wizard.personalOffer")}</p> : null}
    </div>
  );
}

export function DeliveryStep({ data, errors, values }: StepProps) {
  const { t } = useTranslation();
  return (
    <div className="stack">
      <TextField name="full_name" label="wizard.fields.fullName" autoComplete="name" required defaultValue={values.full_name ?? data.order?.fullName} error={errors.full_name} />
      <TextField name="address" label="wizard.fields.address" autoComplete="street-address" required multiline defaultValue={values.address ?? data.order?.address} error={errors.address} />
      <TextField name="delivery_comment" label="wizard.fields.deliveryComment" multiline defaultValue={values.delivery_comment ?? data.order?.deliveryComment} error={errors.delivery_comment} />
      {data.traits.domesticNotices ? (
        <div className="field">
          <label className="checkbox">
            <input
              type="checkbox"
              name="consent"
              id="field-consent"
              aria-invalid={errors.consent ? true : undefined}
              aria-describedby={errors.consent ? "field-consent-error" : undefined}
              defaultChecked={values.consent === "on"}
            />
            <span>
              {t("wizard.fields.consentBefore")}{" "}
              <Link to="/data-consent" target="_blank">
                {t("wizard.fields.consentLink")}
              </Link>
            </span>
          </label>
          {errors.consent ? (
            <p id="field-consent-error" className="field-error">
              {t(errors.consent)}
            </p>
          ) : null}
        </div>
      ) : (
        <p className="muted">
          {t("wizard.fields.dataTermsBefore")}{" "}
          <Link to="/data-consent" target="_blank">
            {t("wizard.fields.dataTermsLink")}
          </Link>
        </p>
      )}
    </div>
  );
}

export function PatientStep({ data, patient, errors, values }: StepProps) {
  const { t } = useTranslation();
  return (
    <div className="stack">
      {data.patients.length ? (
        <fieldset className="choices">
          <legend>{t("wizard.step4.patients")}</legend>
          {data.patients.map((item) => (
            <div key={item.id} className="patient-row">
              <span>
                <strong>{item.name}</strong> <span className="muted small">{item.folder}</span>
              </span>
              {item.id === patient?.id ? (
                <span className="badge badge-paid">{t("wizard.step4.selected")}</span>
              ) : (
                <button type="submit" name="intent" value={`select_patient:${item.id}`} formNoValidate className="button button-small button-secondary">
                  {t("wizard.step4.select")}
                </button>
              )}
            </div>
          ))}
        </fieldset>
      ) : null}
      <TextField name="patient_name" label="wizard.fields.patientName" hint="wizard.step4.hint" error={errors.patient_name} defaultValue={values.patient_name} />
      <div>
        <button type="submit" name="intent" value="add_patient" className="button button-secondary">
          {t("wizard.buttons.addPatient")}
        </button>
      </div>
    </div>
  );
}

const UPLOAD_TEXT: Record<FileType, { intro: string; empty: string }> = {
  matrix: {
    intro: "wizard.upload.matrixIntro",
    empty: "wizard.upload.noFiles",
  },
  aligners: {
    intro: "wizard.upload.alignersIntro",
    empty: "wizard.upload.noFiles",
  },
  retainer: {
    intro: "wizard.upload.retainerIntro",
    empty: "wizard.upload.noFiles",
  },
};

const SYNC_LABEL: Record<string, string> = {
  pending: "wizard.sync.pending",
  uploading: "wizard.sync.uploading",
  completed: "wizard.sync.completed",
  failed: "wizard.sync.failed",
};

export function UploadStep({
  data,
  patient,
  errors,
  type,
  onFilesChosen,
  uploads,
}: StepProps & {
  type: FileType;
  onFilesChosen?: (chosen: boolean) => void;
  uploads?: { items: UploadItem[]; start: (files: File[]) => void };
}) {
  const { t, i18n } = useTranslation();
  const files = patient?.files[type] ?? [];
  const [hydrated, setHydrated] = useState(false);
  const [preview, setPreview] = useState<{ name: string; path: string } | null>(null);
  useEffect(() => {
    setHydrated(true);
    // Files chosen while the page was still loading its script go the resumable way too.
    takeFiles(document.querySelector<HTMLInputElement>("#field-files"));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const sync = useLiveSync(data.order?.id, Object.fromEntries(files.map((file) => [file.path, file.sync])));
  const target = data.order && patient ? { orderId: data.order.id, patientId: patient.id, type } : null;
  // With JavaScript the chosen files go through the resumable upload; without, the form posts them.
  const takeFiles = (input: HTMLInputElement | null) => {
    if (!uploads || !input?.files?.length) return;
    uploads.start([...input.files]);
    input.value = "";
  };
  return (
    <div className="stack">
      <p>{t(UPLOAD_TEXT[type].intro)}</p>
      <div className="field">
        <label htmlFor="field-files">{t("wizard.upload.choose")}</label>
        <input
          id="field-files"
          type="file"
          name="files"
          accept=".stl,.STL"
          multiple
          onChange={(event) => {
            onFilesChosen?.(Boolean(event.currentTarget.files?.length));
            takeFiles(event.currentTarget);
          }}
          aria-invalid={errors.files ? true : undefined}
          aria-describedby={`field-files-hint${errors.files ? " field-files-error" : ""}`}
        />
        <p id="field-files-hint" className="hint">
          {t("wizard.upload.hint")}
        </p>
        {errors.files ? (
          <p id="field-files-error" className="field-error">
            {t(errors.files)}
          </p>
        ) : null}
        <div>
          <button
            type="submit"
            name="intent"
            value="upload"
            className="button button-secondary"
            onClick={(event) => {
              if (!uploads) return;
              event.preventDefault();
              takeFiles(document.querySelector<HTMLInputElement>("#field-files"));
            }}
          >
            {t("wizard.buttons.upload")}
          </button>
        </div>
      </div>
      {uploads ? <UploadProgress items={uploads.items} /> : null}
      {hydrated && target ? <InterruptedUploads key={files.length} target={target} /> : null}
      <h3 className="files-title">{t("wizard.upload.listTitle", { count: files.length })}</h3>
      {files.length === 0 ? (
        <p className="muted">{t(UPLOAD_TEXT[type].empty)}</p>
      ) : (
        <ul className="file-list">
          {files.map((file) => (
            <li key={file.path}>
              <span className="file-name">{file.name}</span>
              <span className="muted small">{formatFileSize(file.size, i18n.language)}</span>
              <span className={`sync sync-${sync[file.path] ?? file.sync}`}>{t(SYNC_LABEL[sync[file.path] ?? file.sync] ?? "wizard.sync.pending")}</span>
              {hydrated ? (
                <button
                  type="button"
                  className="link-button"
                  onClick={() => setPreview(file)}
                  aria-label={t("uploads.viewer.openLabel", {
                    name: file.name,
                  })}
                >
                  {t("uploads.viewer.open")}
                </button>
              ) : null}
              <button
                type="submit"
                name="intent"
                value={`remove:${type}:${file.path}`}
                className="link-button danger"
                formNoValidate
                aria-label={t("wizard.files.removeLabel", { name: file.name })}
                onClick={(event) => {
                  if (!window.confirm(t("wizard.files.confirmRemove", { name: file.name }))) event.preventDefault();
                }}
              >
                {t("wizard.files.remove")}
              </button>
              {file.scan ? <ScanInfo scan={file.scan} /> : null}
            </li>
          ))}
        </ul>
      )}
      {preview ? <ModelPreview name={preview.name} url={`/files/orders/${preview.path}`} onClose={() => setPreview(null)} /> : null}
    </div>
  );
}

export function MatrixTypeStep({ data, patient, errors }: StepProps) {
  const options = [
    ...(data.traits.softMatrix
      ? [
          {
            value: "soft",
            label: "wizard.matrix.soft",
            description: "wizard.products.softMatrix",
          },
        ]
      : []),
    {
      value: "hard",
      label: "wizard.matrix.hard",
      description: "wizard.products.hardMatrix",
    },
  ];
  return <ChoiceField name="matrix_type" legend="wizard.matrix.legend" options={options} value={patient?.matrixType ?? (data.traits.softMatrix ? null : "hard")} error={errors.matrix_type} />;
}

export function MaterialStep({ patient, errors }: StepProps) {
  return (
    <ChoiceField
      name="material_type"
      legend="wizard.material.legend"
      options={[
        {
          value: "single_layer",
          label: "wizard.material.singleLayer",
          description: "wizard.products.singleLayer",
        },
        {
          value: "three_layer",
          label: "wizard.material.threeLayer",
          description: "wizard.products.threeLayer",
        },
      ]}
      value={patient?.materialType}
      error={errors.material_type}
    />
  );
}

export function CutStep({ patient, errors, values }: StepProps) {
  return (
    <div className="stack">
      <ChoiceField
        name="cut_type"
        legend="wizard.cut.legend"
        options={[
          {
            value: "wavy",
            label: "wizard.cut.wavy",
            description: "wizard.cut.wavyText",
          },
          {
            value: "straight",
            label: "wizard.cut.straight",
            description: "wizard.cut.straightText",
          },
        ]}
        value={patient?.cutType}
        error={errors.cut_type}
      />
      <TextField name="additional_comments" label="wizard.fields.additionalComments" multiline defaultValue={values.additional_comments ?? patient?.comments} error={errors.additional_comments} />
    </div>
  );
}

export function SummaryStep({ data }: StepProps) {
  const { t, i18n } = useTranslation();
  const order = data.order!;
  const price = data.price;
  const money = (amount: number) => formatMoney(amount, order.currency, i18n.language);
  const lineLanguage = i18n.language === "ru" ? "ru" : "en";
  return (
    <div className="stack">
      <p>
        {t("wizard.summary.number")} <strong>{order.number}</strong>
        {order.status !== "draft" ? <span className={`badge badge-${order.status}`}> {t(`orderStatus.${order.status}`)}</span> : null}
      </p>
      <dl className="summary-contacts">
        <dt>{t("wizard.fields.email")}</dt>
        <dd>{order.email ?? "—"}</dd>
        <dt>{t("wizard.fields.phone")}</dt>
        <dd>{order.phone ?? "—"}</dd>
        <dt>{t("wizard.fields.fullName")}</dt>
        <dd>{order.fullName ?? "—"}</dd>
        <dt>{t("wizard.fields.address")}</dt>
        <dd>{order.address ?? "—"}</dd>
      </dl>
      {data.patients.map((patient) => (
        <section key={patient.id} className="card summary-patient">
          <h3>
            {patient.name} <span className="muted small">{patient.folder}</span>
          </h3>
          <ul className="plain-list small">
            <li>
              {t("wizard.summary.matrix")}:{" "}
              {patient.skips.skipMatrix || !patient.files.matrix.length
                ? t("wizard.summary.none")
                : `${t(patient.matrixType === "soft" ? "wizard.matrix.soft" : "wizard.matrix.hard")} · ${t("wizard.summary.files", {
                    count: patient.files.matrix.length,
                  })}`}
            </li>
            <li>
              {t("wizard.summary.aligners")}:{" "}
              {patient.skips.skipAligners || !patient.files.aligners.length
                ? t("wizard.summary.none")
                : `${t(patient.materialType === "three_layer" ? "wizard.material.threeLayer" : "wizard.material.singleLayer")} · ${t(
                    patient.cutType === "straight" ? "wizard.cut.straight" : "wizard.cut.wavy",
                  )} · ${t("wizard.summary.files", {
                    count: patient.files.aligners.length,
                  })}`}
            </li>
            <li>
              {t("wizard.summary.retainers")}:{" "}
              {patient.skips.skipRetainers || !patient.files.retainer.length
                ? t("wizard.summary.none")
                : t("wizard.summary.files", {
                    count: patient.files.retainer.length,
                  })}
            </li>
            {patient.comments ? (
              <li>
                {t("wizard.fields.additionalComments")}: {patient.comments}
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
                    <th scope="row">{lineText(line.kind, lineLanguage, line.patientName ?? "")}</th>
                    <td className="num muted">
                      {line.quantity} × {money(line.unitPrice)}
                    </td>
                    <td className="num">{money(line.amount)}</td>
                  </tr>
                ))}
              {price.discountAmount > 0 ? (
                <tr>
                  <th scope="row">
                    {t("wizard.summary.discount", {
                      percent: price.discountPercent,
                    })}
                  </th>
                  <td />
                  <td className="num">−{money(price.discountAmount)}</td>
                </tr>
              ) : null}
              <tr>
                <th scope="row">{lineText("delivery", lineLanguage)}</th>
                <td />
                <td className="num">{money(price.delivery)}</td>
              </tr>
              {price.serviceFee > 0 ? (
                <tr>
                  <th scope="row">
                    {lineText("service_fee", lineLanguage)}
                    <div className="muted small">
                      {t("wizard.summary.serviceFeeNote", {
                        amount: money(price.minimumOrder),
                      })}
                    </div>
                  </th>
                  <td />
                  <td className="num">{money(price.serviceFee)}</td>
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
        </div>
      ) : null}
      {data.personalOffer ? <p className="note">{t("wizard.personalOffer")}</p> : null}
      {order.status === "pending" ? <p className="note">{t("wizard.summary.pendingNote")}</p> : null}
    </div>
  );
}

export function PatientSelector({ data, patient }: { data: StepData; patient: Patient | null }) {
  const { t } = useTranslation();
  if (!patient) return null;
  if (data.patients.length < 2) {
    return (
      <p className="patient-banner">
        {t("wizard.patientFor")} <strong>{patient.name}</strong>
      </p>
    );
  }
  return (
    <Form method="post" className="patient-banner patient-select" reloadDocument>
      <label htmlFor="patient-select">{t("wizard.patientFor")}</label>
      <select
        id="patient-select"
        name="patientId"
        defaultValue={patient.id}
        onChange={(event) => event.currentTarget.form?.requestSubmit(event.currentTarget.form.querySelector<HTMLButtonElement>("button[value=select_patient]"))}
      >
        {data.patients.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </select>
      <button type="submit" name="intent" value="select_patient" className="button button-small button-secondary">
        {t("wizard.step4.select")}
      </button>
    </Form>
  );
}
