import { useTranslation } from "~/components/i18n/i18n-context";
import { POSTER_DATA_URI, VideoPoster } from "./illustrations";

/**
 * The production film loads nothing until asked, with or without JavaScript: the poster is inline
 * SVG in a <summary>; opening it shows the player in its place with `preload="none"` (and the same
 * drawing as poster, from a data URI), so the file is fetched only when the doctor presses play.
 * A doctor on a slow clinic line never downloads it by scrolling past.
 */
export function VideoSlot({ src }: { src: string }) {
  const { t } = useTranslation();
  return (
    <figure className="video-slot">
      <details className="video-details">
        <summary className="video-poster">
          {/* The call comes first so the summary's accessible name starts with its visible text (WCAG 2.5.3); it is positioned over the poster. */}
          <span className="video-play">{t("landing.why.video.play")}</span>
          <VideoPoster label={t("landing.why.video.posterLabel")} />
        </summary>
        {/* The film has no speech, so it carries no captions. */}
        <video className="video-player" src={src} controls preload="none" playsInline poster={POSTER_DATA_URI} aria-label={t("landing.why.video.player")} />
      </details>
      <figcaption>
        <strong>{t("landing.why.video.title")}</strong> <span className="muted">{t("landing.why.video.duration")}. {t("landing.why.video.note")}</span>
      </figcaption>
    </figure>
  );
}
