import { defineConfig } from "@playwright/test";

const chromium = {
  browserName: "chromium" as const,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  },
  locale: "es-ES",
  timezoneId: "UTC",
};

/**
 * Every journey runs twice: with JavaScript (the enhanced app) and without it (plain HTML forms);
 * the specs of server-side checks and downloads run once (see nojs' testIgnore).
 * Each worker starts its own built server on a copy of one migrated SQLite file
 * (tests/e2e/global-setup.ts, tests/e2e/server.ts); tests arrange their own data, so any test may
 * run on any worker in any order.
 */
export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  outputDir: "test-results",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? "line" : [["list"]],
  use: {
    // DOM snapshots are what a failed journey is read from; per-action screenshots cost CPU.
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: true },
    screenshot: "only-on-failure",
  },
  projects: [
    { name: "js", use: { ...chromium, javaScriptEnabled: true } },
    {
      name: "nojs",
      use: { ...chromium, javaScriptEnabled: false },
      // Server-side access checks and downloads read the same HTML and files whatever the browser
      // runs: once, with JavaScript, is enough (the rest of the journeys run both ways).
      testIgnore: [
        /thread-permissions\.spec/,
        /exports(-more)?\.spec/,
        /receipts\.spec/,
        /system\.spec/,
      ],
    },
    // Hostile requests over raw HTTP against the built server (tests/edge/helpers.ts); no browser.
    // Its tests run one after another (memory and timing checks); alone: --project=edge
    { name: "edge", testDir: "tests/edge", timeout: 120_000, fullyParallel: false },
  ],
});
