import { useTranslation } from "~/components/i18n/i18n-context";
import { EquipmentIcon, type EquipmentKind } from "./illustrations";
import { VideoSlot } from "./video-slot";

const TECHNOLOGY = ["print", "forming", "cutting", "trim", "wax", "materials"] as const;
const SERVICE = ["speed", "schedule", "quality", "packaging", "patients", "payment"] as const;
const EQUIPMENT: EquipmentKind[] = ["printer", "former", "cutter", "control"];

export function WhyUs({ videoSrc }: { videoSrc: string }) {
  const { t } = useTranslation();
  return (
    <section className="landing-section" id="why" aria-labelledby="why-title">
      <div className="container">
        <h2 id="why-title">{t("landing.why.title")}</h2>
        <p className="section-lead">{t("landing.why.lead")}</p>
        <div className="why-grid">
          <div className="why-lists">
            <div>
              <h3>{t("landing.why.technology.title")}</h3>
              <ul className="check-list">
                {TECHNOLOGY.map((item) => (
                  <li key={item}>{t(`landing.why.technology.${item}`)}</li>
                ))}
              </ul>
            </div>
            <div>
              <h3>{t("landing.why.service.title")}</h3>
              <ul className="check-list">
                {SERVICE.map((item) => (
                  <li key={item}>{t(`landing.why.service.${item}`)}</li>
                ))}
              </ul>
            </div>
          </div>
          <VideoSlot src={videoSrc} />
        </div>
        <h3 className="subsection-title">{t("landing.why.equipment.title")}</h3>
        <ul className="equipment-grid">
          {EQUIPMENT.map((kind) => (
            <li key={kind} className="card equipment-card">
              <EquipmentIcon kind={kind} />
              <h4>{t(`landing.why.equipment.${kind}.title`)}</h4>
              <p className="spec">{t(`landing.why.equipment.${kind}.spec`)}</p>
              <p>{t(`landing.why.equipment.${kind}.text`)}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
