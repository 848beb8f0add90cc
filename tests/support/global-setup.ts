import type { TestProject } from "vitest/node";
import { createTemplateDatabase, dropTemplateDatabase } from "./database";

/**
 * Runs once per integration run: migrates the template database every test file clones. The name
 * is unique per run, so two runs on one PostgreSQL server never drop each other's template.
 */
export async function setup(project: TestProject) {
  const name = `aligner_test_template_${process.pid}`;
  await createTemplateDatabase(name);
  project.provide("templateDatabase", name);
  return async () => {
    await dropTemplateDatabase(name);
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}
