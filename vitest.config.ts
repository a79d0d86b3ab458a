import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    // Each test file gets its own fresh database (a copy of one migrated template), uploads and
    // mail folders (see tests/global-setup.ts and tests/setup.ts).
    globalSetup: ["tests/global-setup.ts"],
    setupFiles: ["tests/setup.ts"],
    pool: "forks",
    // One fork per core: vitest's default keeps a core for itself, which on two cores ran every
    // file one after another (171 s against 98 s with two forks, same machine).
    maxWorkers: os.availableParallelism(),
    minWorkers: 1,
    testTimeout: 20_000,
  },
});
