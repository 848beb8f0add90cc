import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = {
  "~db": path.resolve(import.meta.dirname, "db"),
  "~": path.resolve(import.meta.dirname, "app"),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
          // The last resort, not a wait (ADR 059): the packing and compression tests are CPU-bound
          // and took longer than vitest's default 5 s with two busy processes beside the suite.
          testTimeout: 60_000,
          // One pool of two workers for both projects (the same maxWorkers, no group order): unit
          // files fill the time a worker would wait for the integration files, and the other way
          // round. Run first and on one worker, the unit files took 276 s beside the journeys (ADR 059).
          maxWorkers: 2,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/support/global-setup.ts"],
          setupFiles: ["tests/support/worker-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: "forks",
          maxWorkers: 2,
        },
      },
    ],
  },
});
