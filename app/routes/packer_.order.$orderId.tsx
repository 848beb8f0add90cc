import type { ActionFunctionArgs, HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { LABEL_WINDOW } from "~/components/packer/print-soon";
import { labelUrls } from "~/modules/packer/label-urls";
import { ScanInPlace } from "~/components/packer/scan-in-place";
import { dateTimeFormat } from "~/modules/i18n/intl";
import packerStyles from "~/styles/packer.css";
import { loadPackerOrderPage, type OrderPageReply, packerOrderPageAction } from "~/modules/packer/packer-order-page.server";

/**
 * The packer's order page (ADR 103): scan every bag, then "Упаковано". A plain form works without
 * JavaScript; the inline script only posts it in place and sounds the answer.
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: packerStyles }];
export const handle = { hydrate: false };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadPackerOrderPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return packerOrderPageAction(args);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export default function PackerOrderPage() {
  const page = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as OrderPageReply | undefined;
  const { t, i18n } = useTranslation();
  const total = page.bags.length;
  const missing = total - page.scanned;
  const refusedScan = reply && "scan" in reply ? reply.reason : null;
  const refusedPack = reply && "pack" in reply ? reply : null;
  const action = `/packer/order/${page.id}`;
  const packedAt = (iso: string) => dateTimeFormat(i18n.language === "ru" ? "ru-RU" : i18n.language, { dateStyle: "short", timeStyle: "short" }).format(new Date(iso));
  return (
    <div className="pk" id="pk-order">
      <header className="pk-bar">
        <h1>{page.title}</h1>
        <a href="/packer">{t("packer.back")}</a>
      </header>
      <p>
        <b>{page.client ?? t("packer.card.noClient")}</b> · {page.address ?? t("packer.card.noAddress")} · {t(page.statusKey)}
      </p>
      <p className="pk-actions">
        {/* The one print window of the station (ADR 068). */}
        <a className="button button-small" href={labelUrls(page.labelFormat, page.id).box} target={LABEL_WINDOW}>
          {t("packer.labels.box")}
        </a>
        {total > 0 ? (
          <a className="button button-small" href={labelUrls(page.labelFormat, page.id).bags} target={LABEL_WINDOW}>
            {t("packer.labels.bags")}
          </a>
        ) : null}
      </p>

      {page.canPack && total > 0 ? (
        <form method="post" action={action} className="pk-scan-form" data-scan="">
          <input type="hidden" name="intent" value="scan" />
          <label htmlFor="bag-code">{t("packer.order.scan.label")}</label>
          <input id="bag-code" name="code" type="text" inputMode="numeric" autoComplete="off" autoFocus maxLength={200} aria-describedby="scan-hint scan-result" />
          <button type="submit" className="button button-small">
            {t("packer.order.scan.submit")}
          </button>
          <p id="scan-hint" className="muted small">
            {t("packer.order.scan.hint")}
          </p>
        </form>
      ) : null}
      <div id="scan-result">
        {refusedScan ? (
          <p className="pk-scan-refused" role="alert" data-scan-result="refused">
            {t(`packer.order.refused.${refusedScan}`)}
          </p>
        ) : page.last ? (
          <p className="pk-scan-ok" role="status" data-scan-result="ok">
            {t("packer.order.scan.ok", { bag: page.last })}
          </p>
        ) : null}
        {reply && "failed" in reply ? (
          <p className="pk-scan-refused" role="alert">
            {t("packer.packed.failed")}
          </p>
        ) : null}
      </div>

      {total === 0 ? (
        <p className="empty">{t("packer.order.noBags")}</p>
      ) : (
        <>
          <h2>{t("packer.order.progress", { scanned: page.scanned, total })}</h2>
          <ol className="pk-bags">
            {page.bags.map((bag, index) => (
              <li key={index} className={bag.scanned ? "pk-bag pk-bag-scanned" : "pk-bag"}>
                <span className="pk-tick">{bag.scanned ? t("packer.order.scanned") : t("packer.order.notScanned")}</span> {bag.text}{" "}
                {/* No bag code here: a code is read off the bag itself, never typed from this list. */}
                <span className="muted small">
                  · {bag.folder} · {bag.file}
                </span>
              </li>
            ))}
          </ol>
        </>
      )}

      {page.packedAt ? (
        <p className="pk-packed">{t("packer.packed.at", { time: packedAt(page.packedAt) })}</p>
      ) : page.canPack ? (
        <form method="post" action={action} className="pk-pack-form">
          <input type="hidden" name="intent" value="pack" />
          {missing > 0 ? (
            <>
              <p className={refusedPack ? "pk-scan-refused" : "hint"} role={refusedPack ? "alert" : undefined}>
                {refusedPack && refusedPack.reason !== "unscanned" ? t(`packer.order.packRefused.${refusedPack.reason}`) : t("packer.order.unscanned", { count: missing })}
              </p>
              <label htmlFor="pack-reason">{t("packer.order.reason")}</label>
              <textarea id="pack-reason" name="reason" rows={2} maxLength={500} />
            </>
          ) : (
            <>
              {refusedPack ? (
                <p className="pk-scan-refused" role="alert">
                  {t(`packer.order.packRefused.${refusedPack.reason}`)}
                </p>
              ) : null}
              {total > 0 ? <p className="pk-scan-ok">{t("packer.order.allScanned")}</p> : null}
            </>
          )}
          <button type="submit" className="button" aria-label={t("packer.packed.buttonLabel", { number: page.number })}>
            {t("packer.packed.button")}
          </button>
        </form>
      ) : (
        <p className="muted">{t("packer.packed.notDue")}</p>
      )}
      <ScanInPlace />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
