import type { Message } from './en.ts';

/**
 * A message with its `{placeholders}` filled in; an unknown placeholder stays as written. A plural
 * message takes the form of `values.count`'s plural category in the language (`Intl.PluralRules`),
 * else its `other` form.
 */
export function fill(message: Message, values: Record<string, string | number> = {}, locale = 'en'): string {
  const template =
    typeof message === 'string'
      ? message
      : (message[new Intl.PluralRules(locale).select(Number(values.count))] ?? message.other);
  return template.replace(/\{(\w+)\}/g, (whole: string, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
