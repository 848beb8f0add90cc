import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { RoleAssignForm } from "~/components/backoffice/role-assign-forms";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { loadRolesPage, type RemovalQuestion, rolesPageAction, type RolesReply } from "~/modules/backoffice/roles-page.server";
import { useTranslation } from "~/components/i18n/i18n-context";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadRolesPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return rolesPageAction(args);
}

export default function BackofficeRoles() {
  const { withRoles, suggestions, listFailure } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as RolesReply | RemovalQuestion | undefined;
  const question = answer && "confirmRemove" in answer ? answer.confirmRemove : null;
  const failure = answer && !("confirmRemove" in answer) ? answer : undefined;
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  return (
    <section className="bo-page">
      <p>
        <Link to="/backoffice">{t("bo.back")}</Link>
      </p>
      <h1>{t("bo.roles.title")}</h1>
      <p className="muted">{t("bo.roles.intro")}</p>
      {question ? (
        <Form method="post" className="card stack bo-confirm-remove" aria-labelledby="roles-confirm-title">
          <h2 id="roles-confirm-title">{t("bo.roles.confirmTitle")}</h2>
          <p role="alert">{t("bo.roles.confirmLast", { email: question.email, role: t(`bo.roles.labels.${question.role}`) })}</p>
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="userId" value={question.userId} />
          <input type="hidden" name="role" value={question.role} />
          <input type="hidden" name="confirm" value="yes" />
          <div className="bo-dialog-actions">
            <Link to="/backoffice/roles" className="button button-secondary">
              {t("bo.dialog.cancel")}
            </Link>
            <button type="submit" className="button bo-danger" disabled={busy}>
              {t("bo.roles.confirmYes")}
            </button>
          </div>
        </Form>
      ) : null}
      <RoleAssignForm suggestions={suggestions} reply={failure} busy={busy} />
      <h2>{t("bo.roles.withRoles")}</h2>
      {listFailure ? <SectionError failure={listFailure} /> : null}
      {listFailure ? null : withRoles.length === 0 ? (
        <p className="empty">{t("bo.roles.none")}</p>
      ) : (
        <ul className="bo-role-list">
          {withRoles.map((user) => (
            <li key={user.id}>
              <span className="bo-email">{user.email}</span>
              <span className="bo-badges">
                {user.roles.map((role) => (
                  <Form method="post" key={role} className="inline-form">
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="userId" value={user.id} />
                    <input type="hidden" name="role" value={role} />
                    <button
                      type="submit"
                      className={`badge bo-role bo-role-${role}`}
                      aria-label={t("bo.roles.removeLabel", {
                        role: t(`bo.roles.labels.${role}`),
                        email: user.email,
                      })}
                    >
                      {t(`bo.roles.labels.${role}`)} <span aria-hidden="true">×</span>
                    </button>
                  </Form>
                ))}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
