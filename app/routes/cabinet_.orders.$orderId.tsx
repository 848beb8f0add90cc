import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { CabinetOrder } from "~/components/cabinet/cabinet-order";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { cabinetOrderAction, loadCabinetOrderPage } from "~/modules/cabinet/cabinet-order-page.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];


export async function loader(args: LoaderFunctionArgs) {
  return loadCabinetOrderPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return cabinetOrderAction(args);
}

export default function CabinetOrderPage() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <section className="container cabinet">
      <p className="small">
        <Link to="/cabinet">{t("cabinet.backToOrders")}</Link>
      </p>
      <CabinetOrder data={data} reply={reply} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
