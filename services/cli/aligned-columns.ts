/**
 * Rows as an operator reads them in a terminal: a header line of the column names, then one line
 * per row, each column as wide as its widest value; numbers right-aligned, text left-aligned.
 * (`console.table` adds an index column and quotes every string.)
 */
export function alignedColumns<Row extends Record<string, string | number>>(
  rows: readonly Row[],
  columns: readonly (keyof Row & string)[],
): string[] {
  const cell = (row: Row, column: keyof Row & string) => String(row[column]);
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row, column).length)));
  const numeric = columns.map((column) => rows.length > 0 && rows.every((row) => typeof row[column] === 'number'));
  const line = (values: string[], alignNumbers: boolean) =>
    values
      .map((value, index) =>
        alignNumbers && numeric[index] ? value.padStart(widths[index]!) : value.padEnd(widths[index]!),
      )
      .join('  ')
      .trimEnd();
  return [
    line([...columns], false),
    ...rows.map((row) =>
      line(
        columns.map((column) => cell(row, column)),
        true,
      ),
    ),
  ];
}
