import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../support/database";
import { follow, gatePassed, rendered, signedInAs, toastOf, type Browser } from "./support";
import { startApp, type TestApp } from "../../support/app";

/** /backoffice/roles over HTTP: admins only, the spec's validation texts, the last admin stays (DESIGN §4.24). */
describe("back-office roles", () => {
  let t: TestDatabase;
  let app: TestApp;
  let admin: Browser;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
    admin = await signedInAs(app, t.db, "admin@aligner.test", ["admin"]);
    await t.db.insertInto("users").values([{ email: "doctor@clinic.test" }, { email: "nurse@clinic.test" }]).execute();
  });
  afterAll(async () => {
    await app?.close();
  });

  const rolesOf = async (email: string) =>
    (await t.db.selectFrom("user_roles").innerJoin("users", "users.id", "user_roles.user_id").select("role").where("users.email", "=", email).orderBy("role").execute()).map((row) => row.role);

  it("answers 403 to a manager and to the back-office password, on GET and POST", async () => {
    const manager = await signedInAs(app, t.db, "manager@aligner.test", ["manager"]);
    expect((await manager.request("/backoffice/roles")).status).toBe(403);
    expect((await manager.request("/backoffice/roles", { form: { intent: "assign_email", email: "manager@aligner.test", role: "admin" } })).status).toBe(403);
    const gate = await gatePassed(app);
    expect((await gate.request("/backoffice/roles")).status).toBe(403);
    expect((await gate.request("/backoffice/roles", { form: { intent: "assign_email", email: "doctor@clinic.test", role: "admin" } })).status).toBe(403);
    expect(await rolesOf("manager@aligner.test")).toEqual(["manager"]);
    expect(await rolesOf("doctor@clinic.test")).toEqual([]);
    // The tab is shown to admins only.
    expect(await (await manager.request("/backoffice")).text()).not.toContain('href="/backoffice/roles"');
    expect(await (await admin.request("/backoffice")).text()).toContain('href="/backoffice/roles"');
  });

  it("shows the spec's validation texts", async () => {
    const noRole = await admin.request("/backoffice/roles", { form: { intent: "assign_email", email: "doctor@clinic.test", role: "" } });
    expect(noRole.status).toBe(400);
    expect(rendered(await noRole.text())).toContain("Введите email и выберите роль");
    const unknown = await admin.request("/backoffice/roles", { form: { intent: "assign_email", email: "nobody@clinic.test", role: "manager" } });
    expect(unknown.status).toBe(400);
    expect(rendered(await unknown.text())).toContain("Пользователь с таким email не найден");
  });

  it("assigns by e-mail (any case) with one form, and shows roles as badges", async () => {
    const byEmail = await admin.request("/backoffice/roles", { form: { intent: "assign_email", email: " Doctor@Clinic.TEST ", role: "manager" } });
    expect(byEmail.status).toBe(302);
    expect(toastOf(await follow(admin, byEmail))).toEqual(["Роль назначена пользователю"]);
    expect((await admin.request("/backoffice/roles", { form: { intent: "assign_email", email: "nurse@clinic.test", role: "admin" } })).status).toBe(302);
    expect(await rolesOf("doctor@clinic.test")).toEqual(["manager"]);
    expect(await rolesOf("nurse@clinic.test")).toEqual(["admin"]);
    const page = rendered(await (await admin.request("/backoffice/roles")).text());
    expect(page).toContain('aria-label="Удалить роль Менеджер у doctor@clinic.test"');
    expect(page).toContain('aria-label="Удалить роль Администратор у nurse@clinic.test"');
  });

  it("removes a role, but never the last admin's", async () => {
    const doctor = await t.db.selectFrom("users").select("id").where("email", "=", "doctor@clinic.test").executeTakeFirstOrThrow();
    // The doctor's only role: the page asks first and removes nothing until the answer is yes.
    const asked = await admin.request("/backoffice/roles", { form: { intent: "remove", userId: doctor.id, role: "manager" } });
    expect(asked.status).toBe(200);
    expect(rendered(await asked.text())).toContain("Удалить последнюю роль?");
    expect(await rolesOf("doctor@clinic.test")).toEqual(["manager"]);
    const removed = await admin.request("/backoffice/roles", { form: { intent: "remove", userId: doctor.id, role: "manager", confirm: "yes" } });
    expect(toastOf(await follow(admin, removed))).toEqual(["Роль удалена у пользователя"]);
    expect(await rolesOf("doctor@clinic.test")).toEqual([]);

    const nurse = await t.db.selectFrom("users").select("id").where("email", "=", "nurse@clinic.test").executeTakeFirstOrThrow();
    const me = await t.db.selectFrom("users").select("id").where("email", "=", "admin@aligner.test").executeTakeFirstOrThrow();
    // Two admins removing each other at once: one succeeds, one admin remains.
    await Promise.all([
      admin.request("/backoffice/roles", { form: { intent: "remove", userId: nurse.id, role: "admin", confirm: "yes" } }),
      admin.request("/backoffice/roles", { form: { intent: "remove", userId: me.id, role: "admin", confirm: "yes" } }),
    ]);
    const admins = await t.db.selectFrom("user_roles").select("user_id").where("role", "=", "admin").execute();
    expect(admins).toHaveLength(1);

    const last = admins[0]!.user_id;
    const lastAdmin = last === me.id ? admin : await signedInAs(app, t.db, "nurse@clinic.test");
    const refused = await lastAdmin.request("/backoffice/roles", { form: { intent: "remove", userId: last, role: "admin", confirm: "yes" } });
    expect(toastOf(await follow(lastAdmin, refused))).toEqual(["Ошибка", "Нельзя удалить роль у последнего администратора"]);
    expect(await t.db.selectFrom("user_roles").select("user_id").where("role", "=", "admin").execute()).toHaveLength(1);
  });
});
