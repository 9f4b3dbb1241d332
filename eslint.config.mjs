// @ts-check
import eslint from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "**/node_modules/**",
      "coverage/**",
      ".demo/**",
      "bench/results.json",
      // Generated from schema.json by `npm run codegen`; checked by `npm run codegen -- --check`.
      "plugin-sdks/**",
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Fleet code loops over pages and retries; `while (true)` with an explicit break is clearer there.
      "no-constant-condition": ["error", { checkLoops: false }],
    },
  },
  {
    // The serialized provider must `require` the package at run time by design.
    files: ["provider/dynamic/serialized-provider.ts"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["**/*.js", "**/*.cjs", "**/*.mjs"],
    languageOptions: {
      globals: {
        require: "readonly",
        module: "writable",
        process: "readonly",
        console: "readonly",
        __dirname: "readonly",
      },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
