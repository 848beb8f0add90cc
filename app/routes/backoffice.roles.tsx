import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { ROLES } from "~/modules/backoffice/roles";
import { loadRolesPage, rolesPageAction, type RolesReply } from "~/modules/backoffice/roles-page.server";
import { useTranslation } from "~/modules/i18n/i18n-context";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadRolesPage(request, context);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return rolesPageAction(request, context);
}

export default function BackofficeRoles() {
  const { withRoles, users, listFailure } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as RolesReply | undefined;
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const roleOptions = (
    <>
      <option value="">{t("bo.roles.chooseRole")}</option>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {t(`bo.roles.labels.${role}`)}
        </option>
      ))}
    </>
  );
  const emailError = failure?.form === "email" ? failure.error : null;
  const userError = failure?.form === "user" ? failure.error : null;

  return (
    <section className="bo-page">
      <p>
        <Link to="/backoffice">{t("bo.back")}</Link>
      </p>
      <h1>{t("bo.roles.title")}</h1>
      <div className="bo-columns">
        <Form method="post" className="card stack" aria-labelledby="roles-by-email" noValidate>
          <h2 id="roles-by-email">{t("bo.roles.byEmail")}</h2>
          <input type="hidden" name="intent" value="assign_email" />
          <div className="field">
            <label htmlFor="roles-email">{t("bo.roles.email")}</label>
            <input
              id="roles-email"
              type="email"
              name="email"
              autoComplete="off"
              defaultValue={failure?.form === "email" ? failure.email : ""}
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? "roles-email-error" : undefined}
            />
          </div>
          <div className="field">
            <label htmlFor="roles-email-role">{t("bo.roles.role")}</label>
            <select id="roles-email-role" name="role" defaultValue={failure?.form === "email" ? failure.role : ""}>
              {roleOptions}
            </select>
          </div>
          {emailError ? (
            <p id="roles-email-error" className="field-error" role="alert">
              {t(emailError)}
            </p>
          ) : null}
          <div>
            <button type="submit" className="button button-small" disabled={busy}>
              {t("bo.roles.assign")}
            </button>
          </div>
        </Form>

        <Form method="post" className="card stack" aria-labelledby="roles-by-user" noValidate>
          <h2 id="roles-by-user">{t("bo.roles.byUser")}</h2>
          <input type="hidden" name="intent" value="assign_user" />
          <div className="field">
            <label htmlFor="roles-user">{t("bo.roles.user")}</label>
            <select id="roles-user" name="userId" defaultValue={failure?.form === "user" ? failure.userId : ""}>
              <option value="">{t("bo.roles.chooseUser")}</option>
              {users.map((user) => (
                <option key={user.id} value={user.id}>
                  {user.email}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="roles-user-role">{t("bo.roles.role")}</label>
            <select
              id="roles-user-role"
              name="role"
              defaultValue={failure?.form === "user" ? failure.role : ""}
              aria-invalid={userError ? true : undefined}
              aria-describedby={userError ? "roles-user-error" : undefined}
            >
              {roleOptions}
            </select>
          </div>
          {userError ? (
            <p id="roles-user-error" className="field-error" role="alert">
              {t(userError)}
            </p>
          ) : null}
          <div>
            <button type="submit" className="button button-small" disabled={busy}>
              {t("bo.roles.assign")}
            </button>
          </div>
        </Form>
      </div>

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
