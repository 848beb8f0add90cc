import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { loadSection, sectionData, sectionFailure } from "~/modules/http/section.server";
import { requireAdmin } from "~/modules/auth/guards.server";
import { assignRole, findUserByEmail, findUserById, isRole, listUsers, listUsersWithRoles, removeRole, ROLES } from "~/modules/backoffice/roles.server";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { getTranslator } from "~/modules/i18n/i18n.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { readFormData } from "~/modules/http/request.server";
import { logger } from "~/modules/log/logger.server";

const BACK = "/backoffice/roles";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const { t } = await getTranslator(request);
  const db = await getDb();
  // The lists load on their own; the assignment by e-mail works without them (ADR 026).
  const [withRoles, users] = await Promise.all([
    loadSection("back-office: listing users with roles", { message: "failures.usersList" }, () => listUsersWithRoles(db)),
    loadSection("back-office: listing users", { message: "failures.usersList" }, () => listUsers(db)),
  ]);
  return {
    title: t("bo.roles.title"),
    withRoles: sectionData(withRoles, []),
    users: sectionData(users, []),
    listFailure: sectionFailure(withRoles) ?? sectionFailure(users),
  };
}

type Failure = {
  form: "email" | "user";
  error: string;
  email?: string;
  userId?: string;
  role?: string;
};

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const form = await readFormData(request);
  const intent = form.get("intent");
  const role = form.get("role");
  const db = await getDb();

  if (intent === "remove") {
    const userId = String(form.get("userId") ?? "");
    if (!isRole(role)) throw new Response("Unknown role", { status: 400 });
    const result = await removeRole(db, userId, role);
    if (result === "last_admin")
      return redirectWithToast(BACK, {
        type: "error",
        title: "bo.toasts.error",
        description: "bo.roles.lastAdmin",
      });
    if (result === "missing")
      return redirectWithToast(BACK, {
        type: "error",
        title: "bo.toasts.error",
        description: "bo.roles.removeFailed",
      });
    // An admin who gave up their own admin role can no longer open this page.
    const lostAccess = role === "admin" && userId === admin.user?.id;
    return redirectWithToast(lostAccess ? "/backoffice" : BACK, {
      type: "success",
      title: "bo.roles.removed",
    });
  }

  if (intent === "assign_email") {
    const email = String(form.get("email") ?? "").trim();
    const failure = (error: string) => data<Failure>({ form: "email", error, email, role: String(role ?? "") }, { status: 400 });
    if (!email || !isRole(role)) return failure("bo.roles.errors.emailAndRole");
    const user = await findUserByEmail(db, email);
    if (!user) return failure("bo.roles.errors.unknownEmail");
    return assigned(db, user.id, role);
  }

  if (intent === "assign_user") {
    const userId = String(form.get("userId") ?? "");
    const failure = (error: string) => data<Failure>({ form: "user", error, userId, role: String(role ?? "") }, { status: 400 });
    if (!isRole(role)) return failure("bo.roles.errors.chooseRole");
    const user = await findUserById(db, userId);
    if (!user) return failure("bo.roles.errors.chooseUser");
    return assigned(db, user.id, role);
  }

  return redirect(BACK);
}

async function assigned(db: Awaited<ReturnType<typeof getDb>>, userId: string, role: (typeof ROLES)[number]) {
  try {
    await assignRole(db, userId, role);
  } catch (error) {
    logger.error("back-office: assigning a role failed:", error);
    return redirectWithToast(BACK, {
      type: "error",
      title: "bo.toasts.error",
      description: "bo.roles.assignFailed",
    });
  }
  return redirectWithToast(BACK, {
    type: "success",
    title: "bo.roles.assigned",
  });
}

export default function BackofficeRoles() {
  const { withRoles, users, listFailure } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as Failure | undefined;
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
