import type { Language } from "~/modules/i18n/languages";

/** Small inline flags: emoji flags do not render on many office PCs (no colour emoji font). */
const STRIPES: Record<Exclude<Language, "en">, { dir: "h" | "v"; colors: string[]; weights?: number[] }> = {
  ru: { dir: "h", colors: ["#fff", "#0039a6", "#d52b1e"] },
  de: { dir: "h", colors: ["#000", "#dd0000", "#ffce00"] },
  es: { dir: "h", colors: ["#aa151b", "#f1bf00", "#aa151b"], weights: [1, 2, 1] },
  fr: { dir: "v", colors: ["#002395", "#fff", "#ed2939"] },
  it: { dir: "v", colors: ["#009246", "#fff", "#ce2b37"] },
};

export function Flag({ language }: { language: Language }) {
  if (language === "en") {
    return (
      <svg className="flag" viewBox="0 0 60 40" width="21" height="14" aria-hidden="true">
        <rect width="60" height="40" fill="#012169" />
        <path d="M0 0l60 40M60 0L0 40" stroke="#fff" strokeWidth="8" />
        <path d="M0 0l60 40M60 0L0 40" stroke="#c8102e" strokeWidth="3" />
        <path d="M30 0v40M0 20h60" stroke="#fff" strokeWidth="12" />
        <path d="M30 0v40M0 20h60" stroke="#c8102e" strokeWidth="7" />
      </svg>
    );
  }
  const { dir, colors, weights = [1, 1, 1] } = STRIPES[language];
  const total = weights.reduce((a, b) => a + b, 0);
  let offset = 0;
  return (
    <svg className="flag" viewBox="0 0 60 40" width="21" height="14" aria-hidden="true">
      {colors.map((color, index) => {
        const size = ((dir === "h" ? 40 : 60) * weights[index]!) / total;
        const rect =
          dir === "h" ? <rect key={index} x="0" y={offset} width="60" height={size} fill={color} /> : <rect key={index} x={offset} y="0" width={size} height="40" fill={color} />;
        offset += size;
        return rect;
      })}
      <rect width="60" height="40" fill="none" stroke="#0002" strokeWidth="2" />
    </svg>
  );
}
