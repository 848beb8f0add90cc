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
          // First, on both cores (vitest's default leaves one free): on one worker beside the browser
          // journeys the unit group took 276 s before the integration group could start. Sharing one
          // pool with the integration files instead made a loaded run slower and failed a
          // timing-bound integration test (ADR 059).
          sequence: { groupOrder: 0 },
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
