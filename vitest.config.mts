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
          sequence: { groupOrder: 0 },
          include: ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
          // The last resort, not a wait (ADR 059): the packing and compression tests are CPU-bound
          // and took longer than vitest's default 5 s with two busy processes beside the suite.
          testTimeout: 60_000,
          // Both cores (the default leaves one free): the unit group runs before the integration
          // group, and beside the browser journeys it took 276 s on one worker (ADR 059).
          maxWorkers: 2,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          sequence: { groupOrder: 1 },
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
