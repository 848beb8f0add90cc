import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ClientActionFunctionArgs, ClientLoaderFunctionArgs } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ToastMessage } from "~/components/toast";
import { SectionError } from "~/components/section-error";
import { OrdersInBrowser } from "~/components/orders/orders-in-browser";
import { AnotherDevicePanel } from "~/components/wizard/another-device";
import { isFor, isInFlight, type Toast, UploadProgress, useResumableUploads } from "~/components/wizard/resumable-upload";
import { useTabReturn } from "~/components/wizard/tab-return";
import { ErrorSummary } from "~/components/wizard/fields";
import { ContactsStep } from "~/components/wizard/steps/contacts-step";
import { CutStep } from "~/components/wizard/steps/cut-step";
import { consentShown, DeliveryStep } from "~/components/wizard/steps/delivery-step";
import { MaterialStep } from "~/components/wizard/steps/material-step";
import { MatrixTypeStep } from "~/components/wizard/steps/matrix-type-step";
import { PatientSelector } from "~/components/wizard/steps/patient-selector";
import { PatientStep } from "~/components/wizard/steps/patient-step";
import { SummaryStep } from "~/components/wizard/steps/summary-step";
import { TechnicalInfoStep } from "~/components/wizard/steps/technical-info-step";
import type { StepProps } from "~/components/wizard/steps/types";
import { UploadStep } from "~/components/wizard/steps/upload-step";
import { fieldMessages, readTyped, submittedIntent, type Typed } from "~/components/wizard/form-reading";
import { WizardNav } from "~/components/wizard/wizard-nav";
import { type InPlaceResult, isInPlace, isInPlaceAnswer } from "~/modules/http/forms/in-place";
import { useTranslation } from "~/components/i18n/i18n-context";
import { numberFormat } from "~/modules/i18n/intl";
import { useIdleImport } from "~/modules/validation/idle-import";
import { forwardHeldBy } from "~/modules/wizard/forward";
import { NO_SKIPS, progressPercent, returnStep, SKIP_QUESTION } from "~/modules/wizard/navigation";
import { FIRST_STEP, LAST_STEP, stepAt, type StepView } from "~/modules/wizard/steps";
import { handleWizardAction } from "~/modules/wizard/action.server";
import { loadWizardPage, type WizardLoaderData } from "~/modules/wizard/loader.server";
import { refusalHeaders } from "~/modules/http/answers/route-headers";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data?.order ? `${data.order.pageTitle} — Aligner Lab` : "Aligner Lab",
  },
  { name: "robots", content: "noindex" },
];

export async function loader(args: LoaderFunctionArgs) {
  return loadWizardPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return handleWizardAction(args);
}

/** A refusal's Retry-After reaches the answer (ADR 056). */
export const headers = refusalHeaders;

/** The next page, when the action answered with it (ADR 035): the clientLoader takes it once. */
let answeredPage: WizardLoaderData | null = null;

export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  const answer = await serverAction<typeof action>();
  if (!isInPlaceAnswer(answer)) return answer;
  answeredPage = answer.inPlace.page as WizardLoaderData;
  const result: InPlaceResult = { inPlace: true, toast: answer.inPlace.toast };
  return result;
}

export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const page = answeredPage;
  answeredPage = null;
  return page ?? serverLoader<typeof loader>();
}

/** The component of each step's body (the step table's `view`, steps.ts). */
const STEP_VIEWS: Record<Exclude<StepView, "upload" | "summary">, React.ComponentType<StepProps>> = {
  info: TechnicalInfoStep,
  contacts: ContactsStep,
  delivery: DeliveryStep,
  patient: PatientStep,
  matrixType: MatrixTypeStep,
  material: MaterialStep,
  cut: CutStep,
};

const PAY_FORM = "wizard-pay";

/** The step checks the server runs on typed fields, loaded after the page is usable (ADR 053). */
const wizardChecks = () => import("~/modules/wizard/validation");

/**
 * Before the browser paints (an effect on the server, which paints nothing): a new step is never
 * shown scrolled where the last one was, nor still inert, so a press the moment it appears lands on
 * what the doctor sees.
 */
const useBeforePaint = typeof document === "undefined" ? useEffect : useLayoutEffect;

export default function OrderWizard() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof clientAction>();
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const summaryRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef<number | null>(null);
  const [filesChosen, setFilesChosen] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const { step, order } = data;
  const patient = data.patients.find((item) => item.id === data.currentPatientId) ?? null;
  // A step's typed fields checked in the browser before they are sent (ADR 053): said like the
  // server's refusal, which it is in advance; the server still decides what is sent.
  const checks = useIdleImport(wizardChecks);
  const [checked, setChecked] = useState<{ formKey: string; errors: Record<string, string> } | null>(null);
  const formKey = `${step}:${patient?.id ?? ""}:${data.patients.length}`;
  const refusedHere = checked?.formKey === formKey ? checked.errors : null;
  const reply = actionData && "status" in actionData ? actionData : null;
  const said = useMemo(() => refusedHere ?? fieldMessages(reply?.error), [refusedHere, reply]);
  // A field's message goes as soon as what is typed there passes the step's checks (ADR 057): the
  // fields fixed since the last refusal, by that refusal.
  const [fixed, setFixed] = useState<{ of: Record<string, string>; fields: string[] }>({ of: said, fields: [] });
  const fixedNow = fixed.of === said ? fixed.fields : [];
  const errors = fixedNow.length ? Object.fromEntries(Object.entries(said).filter(([name]) => !fixedNow.includes(name))) : said;
  const values = (reply?.initialValue ?? {}) as Record<string, string>;
  const formError = refusedHere ? undefined : reply?.error?.[""]?.[0];
  const saveFailure = refusedHere ? undefined : reply?.failure;
  const here = stepAt(step);
  const fileType = here.upload?.type;
  const View = here.view === "upload" || here.view === "summary" ? null : STEP_VIEWS[here.view];
  const frozen = order !== null && order.status !== "draft";
  // With JavaScript the step's files go up on their own (resumable uploads); its form then posts like any other step.
  const resumable = Boolean(order && patient && fileType && !frozen);
  const busy = navigation.state !== "idle";
  const props: StepProps = { data, patient, errors, values };
  // What the step's form holds now, for the forward button; a new form starts from what it shows.
  const [typed, setTyped] = useState<Typed & { formKey: string }>({ formKey: "", patientName: "", consent: false });
  const shownTyped: Typed = typed.formKey === formKey ? typed : { patientName: (values.patient_name ?? "").trim(), consent: consentShown(values, data.consentGiven) === "on" };
  const [toast, setToast] = useState<(Toast & { id: number }) | null>(null);
  const notify = useCallback((next: Toast) => setToast({ ...next, id: Date.now() + Math.random() }), []);
  const uploads = useResumableUploads(resumable && order && patient && fileType ? { orderId: order.id, patientId: patient.id, type: fileType } : null, notify);
  useTabReturn(uploads.active, notify);
  // The uploads go on while the doctor goes on (ADR 054): this step's own files, and the others'.
  const stepTarget = resumable && patient && fileType ? { patientId: patient.id, type: fileType } : null;
  const stepUploads = stepTarget ? uploads.items.filter((item) => isFor(item, stepTarget)) : [];
  const otherUploads = uploads.items.filter((item) => !stepTarget || !isFor(item, stepTarget));
  const onTheWay = stepUploads.filter((item) => isInFlight(item) && item.uploadId);
  // A file of this step on its way or just stored: "next" may go. A stored one counts until the page's
  // data, revalidated after its batch, lists it, so the button never blinks off in between.
  const chosenHere = stepUploads.some((item) => item.uploadId && item.stage !== "failed");
  const inFlight = uploads.items.filter(isInFlight);

  // A toast of one step is gone once another shows (ADR 087); one the new step brings follows below.
  useEffect(() => setToast(null), [step]);

  useEffect(() => {
    // A step answered in place (ADR 035) brings the toast its redirect would have left in a cookie.
    if (isInPlace(actionData) && actionData.inPlace === true && actionData.toast) notify(actionData.toast);
  }, [actionData, notify]);

  useBeforePaint(() => {
    // A new step drawn in place (not a new document) starts at its top with the focus on its title,
    // as a new page would (customer side §2): a phone shows the step from its beginning, a screen
    // reader says where the doctor is, and Tab starts from the step's fields.
    if (shownStep.current !== null && shownStep.current !== step) {
      window.scrollTo({ top: 0, left: 0, behavior: "instant" });
      headingRef.current?.focus({ preventScroll: true });
    }
    shownStep.current = step;
  }, [step]);

  useEffect(() => setHydrated(true), []);

  // From the press of a step's button until the next step shows, the step takes no input (ADR 057):
  // no field, file picker or button of a step the doctor is leaving (React 18 has no `inert` prop).
  const pendingForm = useRef<HTMLFormElement>(null);
  useBeforePaint(() => {
    if (pendingForm.current) pendingForm.current.inert = busy;
  }, [busy]);

  useEffect(() => {
    // After a refused "next", move focus to the error summary so screen readers announce it.
    if (actionData) summaryRef.current?.querySelector<HTMLElement>(".error-summary")?.focus();
  }, [actionData]);

  useEffect(() => {
    // And after one refused in the browser.
    if (checked) summaryRef.current?.querySelector<HTMLElement>(".error-summary")?.focus();
  }, [checked]);

  const checkBeforeSending = (event: React.FormEvent<HTMLFormElement>) => {
    const module = checks.loaded.current;
    if (!module) return;
    const problems = module.typedProblems(step, submittedIntent(event), new FormData(event.currentTarget), data.traits.domesticNotices);
    if (Object.keys(problems).length) {
      event.preventDefault();
      setChecked({ formKey, errors: problems });
    } else setChecked(null);
  };

  // Forward is refused by the server anyway; with JavaScript the button says so up front, by the
  // server's own rule (wizard/forward.ts) on what is typed and uploaded (customer side §2). Without
  // JavaScript the button stays enabled where typing could allow it (step 3's consent, step 4's
  // name), and the server answers.
  const forwardHeld = forwardHeldBy(step, {
    noPatient: data.noPatient,
    following: hydrated,
    patientCount: data.patients.length,
    patientTyped: shownTyped.patientName !== "",
    consentRequired: data.traits.domesticNotices,
    consent: shownTyped.consent,
    files: fileType && patient ? { stored: patient.files[fileType].length, skips: patient.skips, onTheWay: resumable ? chosenHere : filesChosen } : null,
  });
  const forwardBlocked = forwardHeld !== null;
  // A step opened from the summary says where its "next" leads once its part is done (ADR 060).
  const forwardText = data.returnsToSummary && returnStep(step, patient?.skips ?? NO_SKIPS) === LAST_STEP ? t("wizard.buttons.backToSummary") : `${t("wizard.buttons.next")} →`;

  return (
    <section className="wizard container">
      {toast ? <ToastMessage key={toast.id} toast={toast} /> : null}
      <header className="wizard-head">
        <Link to="/" className="back-home">
          ← {t("wizard.backHome")}
        </Link>
        <h1>{order ? t("wizard.title", { code: order.title }) : t("wizard.newTitle")}</h1>
        {order ? (
          <Form method="post" action="/order/new" reloadDocument>
            <input type="hidden" name="reason" value="clear" />
            <button type="submit" className="link-button">
              {t("wizard.clearOrder")}
            </button>
          </Form>
        ) : null}
      </header>
      <div className="progress" role="progressbar" aria-valuemin={FIRST_STEP} aria-valuemax={LAST_STEP} aria-valuenow={step} aria-label={t("wizard.progressLabel")}>
        <div className="progress-text">
          <span>{t("wizard.progress", { step, total: LAST_STEP })}</span>
          <span>{numberFormat(i18n.language, { style: "percent" }).format(progressPercent(step) / 100)}</span>
        </div>
        <div className="progress-bar">
          <span style={{ width: `${progressPercent(step)}%` }} />
        </div>
      </div>
      {/* No order in the wizard: the ones this browser left waiting, to continue or pay (ADR 087). */}
      {!order ? <OrdersInBrowser orders={data.ordersInBrowser} startHint="ordersInBrowser.startHintWizard" /> : null}
      {here.perPatient ? <PatientSelector data={data} patient={patient} /> : null}
      {/* A new step or patient list is a new form: its fields start from what the server holds, as on a new page. */}
      <Form
        key={formKey}
        onChange={(event) => {
          setTyped({ formKey, ...readTyped(event.currentTarget) });
          const module = checks.loaded.current;
          if (!module || Object.keys(said).length === 0) return;
          const problems = module.typedProblems(step, "next", new FormData(event.currentTarget), data.traits.domesticNotices);
          setFixed({ of: said, fields: Object.keys(said).filter((name) => name !== "files" && !(name in problems)) });
        }}
        onSubmit={checkBeforeSending}
        onFocus={checks.warm}
        method="post"
        encType={fileType ? "multipart/form-data" : undefined}
        className={busy ? "wizard-form wizard-pending" : "wizard-form"}
        aria-busy={busy || undefined}
        noValidate
        reloadDocument={fileType !== undefined && !resumable}
        ref={pendingForm}
      >
        {/* A post sent again from another step is not applied twice (ADR 046). */}
        <input type="hidden" name="step" value={step} />
        {/* Once the server asked whether to skip a step with files, the next "Пропустить" says yes (ADR 057). */}
        <input type="hidden" name="confirm_skip" value={formError === SKIP_QUESTION ? "yes" : ""} />
        {/* Enter in a field moves forward (ADR 057): the form's first submit button is its default, so the
            forward action comes first — a twin of the visible button, out of sight and out of the tab order. */}
        {here.kind !== "summary" && !frozen ? (
          <button type="submit" name="intent" value="next" className="default-submit" tabIndex={-1} aria-hidden="true" disabled={busy || forwardBlocked}>
            {forwardText}
          </button>
        ) : null}
        <h2 ref={headingRef} tabIndex={-1}>
          {t(here.title)}
        </h2>
        <div ref={summaryRef}>
          <ErrorSummary errors={errors} formError={formError} />
          {saveFailure ? <SectionError failure={saveFailure} /> : null}
        </div>
        {data.noPatient ? (
          <SectionError
            failure={{
              title: "failures.noPatientTitle",
              message: "failures.noPatientText",
            }}
          />
        ) : data.skipped ? (
          <p className="muted">{t("wizard.skippedStep")}</p>
        ) : View ? (
          <View {...props} />
        ) : fileType ? (
          <UploadStep {...props} type={fileType} onFilesChosen={setFilesChosen} uploads={{ ...uploads, items: stepUploads }} />
        ) : (
          <SummaryStep {...props} uploads={uploads.items} />
        )}
        {/* The step's files still going up: chosen, so the server lets the step move on (ADR 054). */}
        {onTheWay.map((item) => (
          <input key={item.id} type="hidden" name="in_flight" value={item.uploadId} />
        ))}
        {otherUploads.length ? (
          <div className="background-uploads">
            <p className="small muted">{t("uploads.progress.background")}</p>
            <UploadProgress items={otherUploads} onRetry={uploads.retry} onRemove={uploads.remove} />
          </div>
        ) : null}
        {here.kind === "summary" && inFlight.length ? (
          <p className="notice pay-waits" role="status">
            {t("uploads.progress.payWaits", { count: inFlight.length })}
          </p>
        ) : null}
        {uploads.items.some((item) => item.stage === "failed") ? <p className="small failed-uploads">{t("uploads.progress.failedHint")}</p> : null}
        <WizardNav
          step={step}
          here={here}
          frozen={frozen}
          busy={busy}
          uploading={stepUploads.some(isInFlight)}
          forward={{ text: forwardText, held: forwardHeld }}
          payment={order?.status === "draft" || order?.status === "pending" ? { form: PAY_FORM, waiting: inFlight.length > 0, market: data.market } : null}
          editable={order?.status === "pending"}
        />
      </Form>
      {here.kind === "summary" ? (
        // The payment page is the provider's: "pay" posts as a plain form, the answer a new document (ADR 035).
        <Form id={PAY_FORM} method="post" reloadDocument />
      ) : null}
      {order && fileType && !frozen && !data.skipped && !data.noPatient ? <AnotherDevicePanel orderId={order.id} email={order.email} /> : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
