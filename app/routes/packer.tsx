import { ListPager } from "~/components/lists/list-pager";
import type { ActionFunctionArgs, HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PasswordGate } from "~/components/password-gate";
import { useTranslation } from "~/components/i18n/i18n-context";
import { isShortSearch } from "~/modules/orders/search-length";
import { statusLabelKey } from "~/modules/orders/status";
import { LABEL_KINDS } from "~/modules/packer/bag-labels";
import { CardFiles } from "~/components/packer/card-files";
import { filterQuery, PACKER_VIEWS, PACKER_PAGE_SIZE } from "~/modules/packer/filter";
import { LABEL_WINDOW } from "~/components/packer/print-soon";
import { dateTimeFormat } from "~/modules/i18n/intl";
import packerStyles from "~/styles/packer.css";
import { loadPackerPage, packerPageAction } from "~/modules/packer/packer-page.server";
import { refusalHeaders } from "~/modules/http/answers/route-headers";
import { LABEL_FORMATS, labelUrls } from "~/modules/packer/label-urls";

/**
 * The packer station (staff-partner-packer §2 "/packer"): a password gate, then the non-draft orders
 * as cards with the client's logo, a logo upload and links to the box and bag label print pages.
 * Plain links and forms only: nothing here needs JavaScript.
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: packerStyles }];

/** The packer pages need no client JavaScript; a root that honours this can leave its scripts out. */
export const handle = { hydrate: false };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadPackerPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return packerPageAction(args);
}

/** Order data never sits in a shared cache (cookies of all loaders are kept by Remix itself); a refusal says when to come back. */
export const headers: HeadersFunction = (args) => {
  const headers = new Headers(refusalHeaders(args));
  headers.set("Cache-Control", "no-store");
  return headers;
};

export default function PackerPage() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const { t, i18n } = useTranslation();
  if (loaded.gate) return <PasswordGate titleKey="gate.packerTitle" reply={actionData} redirectTo={params.get("redirectTo") ?? "/packer"} />;

  const { filter, orders, statuses, hasMore, cursors, loadFailed, labelFormat } = loaded;
  const back = filterQuery(filter);
  const packedAt = (iso: string) => dateTimeFormat(i18n.language === "ru" ? "ru-RU" : i18n.language, { dateStyle: "short", timeStyle: "short" }).format(new Date(iso));
  return (
    <div className="pk">
      <header className="pk-bar">
        <h1>{t("gate.packerTitle")}</h1>
        <form method="get" className="pk-search" role="search">
          <label>
            <span>{t("packer.search.label")}</span>
            <input type="search" name="q" defaultValue={filter.q} placeholder={t("packer.search.placeholder")} maxLength={100} />
          </label>
          {filter.view === "topack" ? null : <input type="hidden" name="view" value={filter.view} />}
          {filter.view === "all" ? (
            <label>
              <span>{t("packer.search.status")}</span>
              <select name="status" defaultValue={filter.status ?? ""}>
                <option value="">{t("packer.search.allStatuses")}</option>
                {statuses.map((status) => (
                  <option key={status} value={status}>
                    {t(statusLabelKey(status))}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <button type="submit" className="button button-small">
            {t("packer.search.submit")}
          </button>
          {filter.q || filter.status ? <a href={`/packer${filterQuery({ ...filter, q: "", status: null }, 1)}`}>{t("packer.search.reset")}</a> : null}
        </form>
        {/* HTML labels or the server's PDFs, remembered by this workstation (ADR 103). */}
        <form method="post" action="/packer/labels" className="pk-search">
          <input type="hidden" name="back" value={back} />
          <label>
            <span>{t("packer.labels.format")}</span>
            <select name="format" defaultValue={labelFormat}>
              {LABEL_FORMATS.map((format) => (
                <option key={format} value={format}>
                  {t(`packer.labels.formats.${format}`)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button button-small button-secondary">
            {t("packer.labels.save")}
          </button>
        </form>
        <form method="post" action="/packer/logout">
          <button type="submit" className="link-button">
            {t("packer.signOut")}
          </button>
        </form>
      </header>
      <nav className="pk-views" aria-label={t("packer.views.label")}>
        {PACKER_VIEWS.map((view) => (
          <a key={view} href={`/packer${filterQuery({ ...filter, view, status: null }, 1)}`} aria-current={filter.view === view ? "page" : undefined}>
            {t(`packer.views.${view}`)}
          </a>
        ))}
      </nav>
      {isShortSearch(filter.q) ? <p className="hint">{t("packer.search.short")}</p> : null}
      <p className="muted small">{t("packer.printWindow")}</p>

      {loadFailed ? (
        <p className="empty" role="alert">
          {t("packer.loadFailed")}
        </p>
      ) : orders.length === 0 ? (
        <p className="empty">{filter.view === "topack" && !filter.q ? t("packer.emptyToPack") : t("packer.empty")}</p>
      ) : (
        <div className="pk-grid">
          {orders.map((order) => (
            <article key={order.id} id={`o-${order.id}`} className="pk-card">
              <div className="pk-head">
                <h2>{order.number}</h2>
                <span className={`badge badge-${order.status}`}>{t(statusLabelKey(order.status))}</span>
                <img className="pk-logo" src={order.logo} alt={t("packer.logo.alt")} width={96} height={40} loading="lazy" />
              </div>
              <p>
                <b>{order.client ?? t("packer.card.noClient")}</b>
                <br />
                {order.address ?? <span className="muted">{t("packer.card.noAddress")}</span>}
              </p>
              {order.patients.length === 0 ? (
                <p className="muted">{t("packer.noPatients")}</p>
              ) : (
                <ol className="pk-patients">
                  {order.patients.map((patient) => (
                    <li key={patient.folder}>
                      <b>{patient.name}</b> <code>{patient.folder}</code>
                      {LABEL_KINDS.map((kind) => (patient.files[kind].length > 0 ? <CardFiles key={kind} kindLabel={t(`packer.kinds.${kind}`)} files={patient.files[kind]} /> : null))}
                      {LABEL_KINDS.every((kind) => patient.files[kind].length === 0) ? <p className="muted">{t("packer.card.noFiles")}</p> : null}
                    </li>
                  ))}
                </ol>
              )}
              {order.email ? (
                <form method="post" action={`/packer/logo?order=${order.id}${back ? `&back=${encodeURIComponent(back)}` : ""}`} encType="multipart/form-data" className="pk-logo-form">
                  <label>
                    {t("packer.logo.choose")}
                    <input type="file" name="logo" accept=".png,.jpg,.jpeg,.webp,.svg" required />
                  </label>
                  <button type="submit" className="button button-small button-secondary">
                    {t("packer.logo.upload")}
                  </button>
                </form>
              ) : (
                <p className="muted">{t("packer.logo.noEmail")}</p>
              )}
              <p className="pk-actions">
                {/* Every label opens in the one named print window, reused: windows never pile up on a shared PC (ADR 068). */}
                <a className="button button-small" href={labelUrls(labelFormat, order.id).box} target={LABEL_WINDOW}>
                  {t("packer.labels.box")}
                </a>
                {order.patients.length > 0 ? (
                  <a className="button button-small" href={labelUrls(labelFormat, order.id).bags} target={LABEL_WINDOW}>
                    {t("packer.labels.bags")}
                  </a>
                ) : (
                  <span className="muted">{t("packer.noPatients")}</span>
                )}
              </p>
              {order.canPack && order.hasBags ? (
                // Every bag is scanned on the order's page before "Упаковано" (ADR 103).
                <p className="pk-packed-form">
                  <a className="button button-small" href={`/packer/order/${order.id}`} aria-label={t("packer.order.openLabel", { number: order.number })}>
                    {t("packer.order.open")}
                  </a>
                </p>
              ) : order.canPack ? (
                <form method="post" action={`/packer/packed/${order.id}`} className="pk-packed-form">
                  <input type="hidden" name="back" value={back} />
                  <button type="submit" className="button button-small" aria-label={t("packer.packed.buttonLabel", { number: order.number })}>
                    {t("packer.packed.button")}
                  </button>
                </form>
              ) : order.packedAt ? (
                <p className="pk-packed">{t("packer.packed.at", { time: packedAt(order.packedAt) })}</p>
              ) : null}
            </article>
          ))}
        </div>
      )}

      <ListPager page={filter.page} pageSize={PACKER_PAGE_SIZE} shown={orders.length} total={null} hasMore={hasMore} cursors={cursors} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
