/**
 * Reads the fleet inventory: one device a line, `sn,name,group,tags` with tags separated by `;`.
 */
import { readFileSync } from "node:fs";

export interface InventoryEntry {
  sn: string;
  name: string;
  group: string;
  tags: string[];
}

export function readInventory(file: string): InventoryEntry[] {
  const [header, ...lines] = readFileSync(file, "utf8")
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "");
  if (header?.trim() !== "sn,name,group,tags")
    throw new Error(`${file}: expected the header "sn,name,group,tags"`);
  return lines.map((line, index) => {
    const [sn, name, group, tags] = line.split(",").map((cell) => cell.trim());
    if (!sn || !name || !group) throw new Error(`${file}:${index + 2}: sn, name and group are required`);
    return { sn, name, group, tags: tags ? tags.split(";").filter(Boolean) : [] };
  });
}
