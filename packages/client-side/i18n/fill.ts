/** A message with its `{placeholders}` filled in; an unknown placeholder stays as written. */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole: string, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
