import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { backofficeSignOut } from "~/modules/backoffice/logout.server";

export async function loader() {
  return redirect("/backoffice");
}

/** "Выйти" in the back office, for every way in: the password session and the e-mail sign-in both end. */
export async function action(args: ActionFunctionArgs) {
  return backofficeSignOut(args);
}
