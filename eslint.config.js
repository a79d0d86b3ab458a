import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Refuses imports (value or type, `~/` or relative) from the given app/ folders. */
function layer(from, forbidden) {
  return {
    patterns: [
      {
        regex: `^(~/|(\\.\\./)+)(${forbidden.join("|")})(/|$)`,
        message: `app/${from} may not import from app/{${forbidden.join(",")}} (STYLE.md layering).`,
      },
    ],
  };
}

export default tseslint.config(
  {
    ignores: [
      "build/",
      "public/build/",
      ".cache/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "uploads/",
      "db/mail/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  // Layering (STYLE.md): routes → models → services → domain → db; an import may only point down.
  {
    files: ["app/domain/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        layer("domain", ["components", "services", "models", "routes"]),
      ],
    },
  },
  {
    files: ["app/models/**"],
    rules: { "no-restricted-imports": ["error", layer("models", ["components", "routes"])] },
  },
  {
    files: ["app/services/**"],
    rules: {
      "no-restricted-imports": ["error", layer("services", ["components", "models", "routes"])],
    },
  },
  {
    files: ["app/root.tsx", "app/routes/**", "app/components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@remix-run/react",
              importNames: ["Link"],
              message: "Links to the app's pages are ~/components/ui/Link (a plain <a>, ADR 0015).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["tests/**"],
    // Playwright fixtures take `{}` when they use no other fixture.
    rules: { "react-hooks/rules-of-hooks": "off", "no-empty-pattern": "off" },
  },
);
