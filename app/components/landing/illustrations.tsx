/**
 * Own illustrations of the landing, drawn as small inline SVG (no stock photos, no image requests).
 * Colours come from the stylesheet's custom properties so they follow the theme.
 */

const round = (value: number) => Math.round(value * 10) / 10;

/** Occlusal view of an upper arch: 14 teeth along a U, incisors at the top, molars larger. */
function archTeeth(cx: number, top: number, rx: number, ry: number) {
  return Array.from({ length: 14 }, (_, index) => {
    const t = Math.PI * (0.05 + (0.9 * index) / 13);
    const along = Math.sin(t);
    const width = 19 + 15 * (1 - along);
    return {
      x: round(cx - rx * Math.cos(t)),
      y: round(top + ry * (1 - along)),
      width: round(width),
      height: round(width * 0.78 + 5),
      angle: round((Math.atan2(-ry * Math.cos(t), rx * Math.sin(t)) * 180) / Math.PI),
    };
  });
}

/** The hero: an aligner (translucent shell) over an upper arch, with the quality check mark. */
export function HeroArt({ label }: { label: string }) {
  const teeth = archTeeth(160, 34, 104, 172);
  return (
    <svg className="hero-art" viewBox="0 0 320 240" role="img" aria-label={label}>
      <rect width="320" height="240" rx="28" fill="var(--surface-2)" />
      {teeth.map((tooth, index) => (
        <g key={index} transform={`translate(${tooth.x} ${tooth.y}) rotate(${tooth.angle})`}>
          <rect x={-tooth.width / 2 - 4} y={-tooth.height / 2 - 4} width={tooth.width + 8} height={tooth.height + 8} rx={tooth.width / 2.2} fill="var(--accent)" fillOpacity=".22" />
          <rect x={-tooth.width / 2} y={-tooth.height / 2} width={tooth.width} height={tooth.height} rx={tooth.width / 2.6} fill="#fff" stroke="#9fb8bd" strokeWidth="1.5" />
        </g>
      ))}
      <g transform="translate(160 150)">
        <circle r="32" fill="#fff" stroke="var(--accent)" strokeWidth="4" />
        <path d="M-14 1l10 10 18-21" fill="none" stroke="var(--accent)" strokeWidth="6" strokeLinecap="round" strokeLinejoin="round" />
      </g>
    </svg>
  );
}

export type EquipmentKind = "printer" | "former" | "cutter" | "control";

const EQUIPMENT: Record<EquipmentKind, React.ReactNode> = {
  printer: (
    <>
      <rect x="6" y="6" width="36" height="36" rx="4" />
      <path d="M6 14h36M18 14v6h12v-6M24 20v4" />
      <path d="M15 38h18M17 35h14M19 32h10M21 29h6" />
    </>
  ),
  former: (
    <>
      <path d="M8 30h32v10H8z" />
      <path d="M12 30c0-8 5-12 12-12s12 4 12 12" />
      <path d="M24 4v9M19 9l5 5 5-5" />
    </>
  ),
  cutter: (
    <>
      <path d="M24 4v12" />
      <rect x="18" y="16" width="12" height="8" rx="2" />
      <path d="M24 24v4" />
      <path d="M6 40c6-10 12-10 18-6s12 4 18-6" strokeDasharray="3 3" />
    </>
  ),
  control: (
    <>
      <circle cx="20" cy="20" r="13" />
      <path d="M30 30l12 12" />
      <path d="M14 20l4 4 8-8" />
    </>
  ),
};

export function EquipmentIcon({ kind }: { kind: EquipmentKind }) {
  return (
    <svg className="equipment-icon" viewBox="0 0 48 48" width="48" height="48" aria-hidden="true">
      <g fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
        {EQUIPMENT[kind]}
      </g>
    </svg>
  );
}

/** A cut through the sheet: height proportional to the thickness, three bands for the three-layer TPU. */
export function ThicknessSwatch({ millimetres, layers }: { millimetres: number; layers: 1 | 3 }) {
  const height = round(millimetres * 24);
  const top = 28 - height;
  return (
    <svg className="swatch" viewBox="0 0 120 30" width="120" height="30" aria-hidden="true">
      {layers === 1 ? (
        <rect x="0" y={top} width="120" height={height} rx="3" fill="var(--accent)" opacity=".75" />
      ) : (
        <>
          <rect x="0" y={top} width="120" height={height} rx="3" fill="var(--accent)" opacity=".75" />
          <rect x="0" y={round(top + height / 3)} width="120" height={round(height / 3)} fill="var(--accent-soft)" />
        </>
      )}
      <path d="M0 29h120" stroke="var(--border)" strokeWidth="1" />
    </svg>
  );
}

/**
 * The film's poster: the production line from printer to parcel, with a play mark. One string, so
 * the same drawing serves inline (nothing loaded for it) and as the player's poster (a data URI).
 */
const POSTER_STATIONS = ["M30 92h40M34 84h32M38 76h24", "M22 92c0-22 12-30 28-30s28 8 28 30", "M20 92c10-14 20-14 30-6s20 8 30-6", "M38 78l9 9 17-19"]
  .map(
    (icon, index) =>
      `<g transform="translate(${40 + index * 130} 132)"><rect width="100" height="110" rx="12" fill="#173841" stroke="#2f5560" stroke-width="3"/>` +
      `<rect x="14" y="16" width="72" height="10" rx="5" fill="#2f5560"/><path d="${icon}" fill="none" stroke="#8fe0d6" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/></g>`,
  )
  .join("");

export const POSTER_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 360"><rect width="640" height="360" fill="#10242b"/>` +
  `<path d="M20 262h600" stroke="#2f5560" stroke-width="10" stroke-linecap="round"/>${POSTER_STATIONS}` +
  `<g transform="translate(560 186)"><rect width="60" height="56" rx="6" fill="#c9a66b"/><path d="M0 18h60M30 0v18" stroke="#8a6d3b" stroke-width="3"/></g>` +
  `<circle cx="320" cy="72" r="40" fill="#fff"/><path d="M307 51v42l35-21z" fill="#0f766e"/></svg>`;

export const POSTER_DATA_URI = `data:image/svg+xml,${encodeURIComponent(POSTER_SVG)}`;

export function VideoPoster({ label }: { label: string }) {
  return <span className="video-poster-art" role="img" aria-label={label} dangerouslySetInnerHTML={{ __html: POSTER_SVG }} />;
}
