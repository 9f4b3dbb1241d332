/**
 * `npm run schema`: writes the plugin's package schema, `pluginSchema(<package.json version>)`, to
 * `schema.json` at the repository root, formatted as the repository's Prettier formats JSON. A unit
 * test (test/unit/plugin/schema.test.ts) fails when the committed file differs from the schema.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { format } from "prettier";
import { pluginSchema } from "../provider/plugin/schema";

const root = join(__dirname, "..");

async function main(): Promise<void> {
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  const text = await format(JSON.stringify(pluginSchema(version)), { parser: "json", printWidth: 110 });
  writeFileSync(join(root, "schema.json"), text);
  console.log(`schema.json: devplatform ${version}, ${text.length} bytes`);
}

void main();
