import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { PageSize, PrintSoon } from "~/components/packer/print-soon";
import packerStyles from "~/styles/packer.css";
import { loadBoxLabelPage } from "~/modules/packer/box-label-page.server";

/** Box label (staff-partner-packer §9): 400×600 px with the client's logo, order number, client, address and patient count. */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: packerStyles }];
export const handle = { hydrate: false };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadBoxLabelPage(args);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export default function BoxLabel() {
  const label = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <>
      <PageSize size="400px 600px" />
      <p className="pk-print-bar">
        <a href="/packer">{t("packer.back")}</a>
        <span>{t("packer.printHint")}</span>
      </p>
      <div className="pk-sheet">
        <section className="box-label" aria-label={label.title}>
          <img src={label.logo} alt={t("packer.logo.alt")} />
          <div className="box-number">{label.number}</div>
          <dl>
            <div>
              <dt>{t("packer.box.client")}</dt>
              <dd>{label.client ?? "—"}</dd>
            </div>
            <div>
              <dt>{t("packer.box.address")}</dt>
              <dd>{label.address ?? "—"}</dd>
            </div>
            <div>
              <dt>{t("packer.box.patients")}</dt>
              <dd>{label.patients}</dd>
            </div>
          </dl>
        </section>
      </div>
      <PrintSoon />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
