/**
 * The one error the inventory module throws for a bad data file: it names the file, the line and,
 * where there is one, the column, so that a reviewer of a pull request can go straight to the cell.
 */

/** Where in a data file a problem is. */
export interface InventoryErrorLocation {
  /** The file as it was given (or a label such as `inventory.csv` for text without a file). */
  readonly file: string;
  /** 1-based line where the record starts; absent for problems of the whole file. */
  readonly line?: number;
  /** Column name (header cell) for CSV, property path for JSON. */
  readonly column?: string;
}

/** A data file that cannot be used as it is; the message says where and what to change. */
export class InventoryError extends Error {
  readonly file: string;
  readonly line: number | undefined;
  readonly column: string | undefined;
  /** The problem without the location prefix. */
  readonly problem: string;
  /**
   * Marks the error as one whose message says everything, the way `@pulumi/pulumi`'s `RunError`
   * does (its language host checks this member, not the class): a program that reads a bad file
   * then fails with this message alone, not "unhandled exception" and a stack trace.
   */
  readonly __pulumiRunError = true;

  constructor(location: InventoryErrorLocation, problem: string) {
    super(`${formatLocation(location)}: ${problem}`);
    this.name = "InventoryError";
    this.file = location.file;
    this.line = location.line;
    this.column = location.column;
    this.problem = problem;
  }
}

/** `file:line, column "sn"`, the way editors and CI annotations read it. */
function formatLocation({ file, line, column }: InventoryErrorLocation): string {
  const where = line === undefined ? file : `${file}:${line}`;
  return column === undefined ? where : `${where}, column "${column}"`;
}
