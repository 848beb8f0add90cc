import { useTranslation } from "~/components/i18n/i18n-context";

const STEPS = ["print", "prepare", "form", "cut", "control", "ship"] as const;

export function Process() {
  const { t } = useTranslation();
  return (
    <section className="landing-section landing-section-alt" id="process" aria-labelledby="process-title">
      <div className="container">
        <h2 id="process-title">{t("landing.process.title")}</h2>
        <p className="section-lead">{t("landing.process.lead")}</p>
        <ol className="process-steps">
          {STEPS.map((step) => (
            <li key={step}>
              <h3>{t(`landing.process.${step}.title`)}</h3>
              <p>{t(`landing.process.${step}.text`)}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
