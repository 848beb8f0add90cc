import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { PageSize, PrintSoon } from "~/components/packer/print-soon";
import packerStyles from "~/styles/packer.css";
import { loadBagLabelsPage } from "~/modules/packer/bag-labels-page.server";

/**
 * Bag labels (staff-partner-packer §9): one 80×80 mm label per step and jaw, each with a QR code of
 * the bag's code (ADR 103), printed under it too; the patient's folder path is printed as text.
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: packerStyles }];
export const handle = { hydrate: false };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadBagLabelsPage(args);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export default function BagLabels() {
  const { title, hasPatients, codes, labels } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const message = !hasPatients ? t("packer.noPatients") : labels.length === 0 ? t("packer.bags.noFiles") : null;
  return (
    <>
      {/* A style element in the body must come first (HTML; the Nu HTML Checker, ADR 048). */}
      {message ? null : <PageSize size="80mm 80mm" />}
      <p className="pk-print-bar">
        <a href="/packer">{t("packer.back")}</a>
        {message ? null : <span>{t("packer.bags.count", { count: labels.length })}</span>}
        {message ? null : <span>{t("packer.printHint")}</span>}
      </p>
      {message ? (
        <p className="empty" role="alert">
          {message}
        </p>
      ) : (
        <>
          <svg width="0" height="0" className="pk-defs" aria-hidden="true">
            {codes.map((code, index) => (
              <symbol key={code.text} id={`qr${index}`} viewBox={`${code.origin} ${code.origin} ${code.side} ${code.side}`}>
                <rect x={code.origin} y={code.origin} width={code.side} height={code.side} fill="#fff" />
                <path d={code.path} fill="#000" shapeRendering="crispEdges" />
              </symbol>
            ))}
          </svg>
          <div className="pk-sheet">
            {labels.map((label, index) => (
              <section key={index} className="bag-label" aria-label={title}>
                <div className="bag-kind">
                  <span>{t(`packer.kinds.${label.kind}`)}</span>
                  <span>{label.orderNumber}</span>
                </div>
                <div className="bag-patient">{label.patientName}</div>
                <div className="bag-main">
                  <div className="bag-qr">
                    <svg role="img" aria-label={t("packer.bags.qr", { text: codes[label.code]!.text })}>
                      <use href={`#qr${label.code}`} />
                    </svg>
                    <div className="bag-code">{label.grouped}</div>
                  </div>
                  <div>
                    <div className="bag-jaw">{t(`packer.jaw.${label.jaw}`)}</div>
                    {label.step ? <div className="bag-step">{t("packer.bags.step", { step: label.step })}</div> : null}
                    <div className="bag-file">{label.folderPath}</div>
                    <div className="bag-file">{label.fileName}</div>
                  </div>
                </div>
              </section>
            ))}
          </div>
          <PrintSoon />
        </>
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
