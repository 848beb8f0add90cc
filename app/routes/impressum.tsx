import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { loadImpressum } from "~/modules/translations/impressum-page.server";

/** A document like the legal pages: no JavaScript, the same for every anonymous visitor (cached with an ETag). */
export const handle = { hydrate: false, publicPage: true };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.impressum.title} — Aligner Lab` : "Aligner Lab" },
  { name: "description", content: data?.impressum.metaDescription ?? "" },
];

export async function loader(args: LoaderFunctionArgs) {
  return loadImpressum(args);
}

export default function ImpressumPage() {
  const { impressum } = useLoaderData<typeof loader>();
  return (
    <article className="container legal">
      <header className="legal-head">
        <h1>{impressum.title}</h1>
        <p className="legal-intro">{impressum.intro}</p>
      </header>
      {impressum.sections.map((section) => (
        <section key={section.id} className="legal-section" aria-labelledby={`impressum-${section.id}`}>
          <h2 id={`impressum-${section.id}`}>{section.title}</h2>
          {section.facts.map((fact, index) => (
            <p key={index}>
              {fact.label ? `${fact.label} ` : null}
              {fact.href ? <a href={fact.href}>{fact.value}</a> : fact.value}
            </p>
          ))}
        </section>
      ))}
      <p>
        <Link to={impressum.privacy.path}>{impressum.privacy.text}</Link>
      </p>
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
