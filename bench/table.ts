/** The benchmark's table: one row per measure, provider against its baseline. */
export interface Row {
  measure: string;
  provider: string;
  baseline?: string;
  ratio?: string;
  requests?: string;
}

const COLUMNS: (keyof Row)[] = ["measure", "provider", "baseline", "ratio", "requests"];

export function printTable(rows: Row[]): void {
  const widths = COLUMNS.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: string[]) =>
    "| " + cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ") + " |";
  console.log("\n" + line(COLUMNS));
  console.log("|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|");
  for (const row of rows) console.log(line(COLUMNS.map((c) => row[c] ?? "")));
}
