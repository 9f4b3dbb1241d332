/**
 * Examples in the schema's descriptions, in the format of Pulumi's documentation: under
 * `{{% examples %}}`, each example is the same complete program in every language, one fenced block
 * per language, from which each SDK's generator keeps its own language in its doc comments
 * (`codegen.FilterExamples`). The e2e tests run every example of schema.json through `pulumi up`
 * in its language, so an example is never a fragment.
 */

/** The languages of every example, by the code-fence names Pulumi's generators filter on. */
export const EXAMPLE_LANGUAGES = ["typescript", "python", "go", "yaml"] as const;

/** A language of the examples. */
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

/** One example: a title and its program in each language. */
export interface SchemaExample {
  readonly title: string;
  readonly programs: Readonly<Record<ExampleLanguage, string>>;
}

/** `description` followed by the examples' section. */
export function withExamples(description: string, examples: readonly SchemaExample[]): string {
  const blocks = examples.map((example) =>
    [
      "{{% example %}}",
      `### ${example.title}`,
      "",
      ...EXAMPLE_LANGUAGES.map(
        (language) => `\`\`\`${language}\n${example.programs[language].trim()}\n\`\`\``,
      ),
      "{{% /example %}}",
    ].join("\n"),
  );
  return [description, "", "{{% examples %}}", "## Example Usage", "", ...blocks, "{{% /examples %}}"].join(
    "\n",
  );
}
