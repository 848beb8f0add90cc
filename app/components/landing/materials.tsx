import { useTranslation } from "~/components/i18n/i18n-context";
import { ThicknessSwatch } from "./illustrations";

/** The product descriptions of customer-side §3: material and thickness per product. */
const PRODUCTS = [
  { key: "singleLayer", millimetres: 0.75, layers: 1 },
  { key: "threeLayer", millimetres: 0.75, layers: 3 },
  { key: "softMatrix", millimetres: 0.6, layers: 1 },
  { key: "hardMatrix", millimetres: 0.4, layers: 1 },
  { key: "retainer", millimetres: 1, layers: 1 },
] as const;

export function Materials({ softMatrix }: { softMatrix: boolean }) {
  const { t } = useTranslation();
  const products = PRODUCTS.filter((product) => softMatrix || product.key !== "softMatrix");
  return (
    <section className="landing-section" id="materials" aria-labelledby="materials-title">
      <div className="container">
        <h2 id="materials-title">{t("landing.materials.title")}</h2>
        <p className="section-lead">{t("landing.materials.lead")}</p>
        <ul className="materials-grid">
          {products.map((product) => (
            <li key={product.key} className="card material-card">
              <ThicknessSwatch millimetres={product.millimetres} layers={product.layers} />
              <h3>{t(`wizard.prices.${product.key}`)}</h3>
              <p className="spec">{t(`wizard.products.${product.key}`)}</p>
              <p>{t(`landing.materials.${product.key}`)}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
