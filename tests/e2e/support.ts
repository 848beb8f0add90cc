import fs from "node:fs";
import path from "node:path";

/** The back-office password of the server under test: fixed for PostgreSQL runs, generated for `npm start`. */
export function backofficePassword(): string {
  if (process.env.E2E_TARGET !== "embedded") return "e2e-office-password";
  const secrets = JSON.parse(fs.readFileSync(path.resolve("tests/.tmp/embedded-data/secrets.json"), "utf8"));
  return secrets.BACKOFFICE_PASSWORD;
}
