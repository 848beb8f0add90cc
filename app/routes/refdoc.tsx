import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { loadRefdocPage } from "~/modules/partners/refdoc-page.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.document.title }];

/** The partner offer agreement (public: a prospective partner reads it before accepting). */
export async function loader(args: LoaderFunctionArgs) {
  return loadRefdocPage(args);
}

export default function PartnerOffer() {
  const { language, document } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <article className="container refdoc" lang={language}>
      <p>
        <Link to="/partner">{t("partners.refdoc.back")}</Link>
      </p>
      <h1>{document.title}</h1>
      <p className="muted">{document.edition}</p>
      {language !== "ru" ? (
        <p className="note" role="note">
          {t("partners.refdoc.binding")}
        </p>
      ) : null}
      <nav aria-labelledby="refdoc-contents" className="refdoc-contents">
        <h2 id="refdoc-contents">{t("partners.refdoc.contents")}</h2>
        <ol>
          {document.sections.map((section, index) => (
            <li key={index}>
              <a href={`#section-${index + 1}`}>{section.title.replace(/^\d+\.\s*/, "")}</a>
            </li>
          ))}
        </ol>
      </nav>
      {document.preamble.map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
      {document.sections.map((section, index) => (
        <section key={index} id={`section-${index + 1}`} aria-labelledby={`section-${index + 1}-title`}>
          <h2 id={`section-${index + 1}-title`}>{section.title}</h2>
          {section.clauses.map((clause, clauseIndex) => (
            <p key={clauseIndex}>{clause}</p>
          ))}
        </section>
      ))}
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
