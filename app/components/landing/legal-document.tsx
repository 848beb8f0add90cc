import { Link } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";
import type { LegalDocument } from "~/modules/translations/legal.server";

/** A legal page: title, edition, contents, numbered sections, and the way back home. */
export function LegalDocumentPage({ document }: { document: LegalDocument }) {
  const { t, i18n } = useTranslation();
  const home = i18n.language === "ru" ? "/" : `/${i18n.language}`;
  return (
    <article className="container legal">
      <header className="legal-head">
        <h1>{document.title}</h1>
        <p className="muted">{document.edition}</p>
        {document.translationNote ? <p className="note">{document.translationNote}</p> : null}
        <p className="legal-intro">{document.intro}</p>
      </header>
      <nav className="legal-contents" aria-labelledby="legal-contents-title">
        <h2 id="legal-contents-title">{document.contentsTitle}</h2>
        <ol className="plain-list">
          {document.sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      {document.sections.map((section) => (
        <section key={section.id} id={section.id} className="legal-section" aria-labelledby={`${section.id}-title`}>
          <h2 id={`${section.id}-title`}>{section.title}</h2>
          {section.blocks.map((block, index) =>
            block.kind === "p" ? (
              block.texts.map((text, line) => <p key={`${index}-${line}`}>{text}</p>)
            ) : (
              <ul key={index}>
                {block.texts.map((text, line) => (
                  <li key={line}>{text}</li>
                ))}
              </ul>
            ),
          )}
        </section>
      ))}
      <nav className="legal-related" aria-labelledby="legal-related-title">
        <h2 id="legal-related-title">{document.related.title}</h2>
        <ul className="plain-list">
          {document.related.links.map((link) => (
            <li key={link.path}>
              <Link to={link.path}>{link.title}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="legal-back">
        <Link className="button" to={home}>
          {t("errors.home")}
        </Link>
      </p>
    </article>
  );
}
