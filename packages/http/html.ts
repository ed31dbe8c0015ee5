import escapeHtml from 'escape-html';

/**
 * Markup that is safe to put in a page as it is: made by `html` (whose interpolations were
 * escaped), or written by us and marked with `trustedHtml`.
 */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

/** What a page template may interpolate: text and numbers are escaped, markup is kept, lists are joined. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

/**
 * The template of every page the service renders: each interpolated value is escaped for HTML
 * text and quoted attribute values (`escape-html`), except markup made by `html` itself, so
 * fragments nest without being escaped twice. Lists are joined; `null`, `undefined` and `false`
 * render nothing (for `${condition && html`…`}`).
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let markup = strings[0]!;
  values.forEach((value, index) => {
    markup += render(value) + strings[index + 1]!;
  });
  return new SafeHtml(markup);
}

/** Markup we write ourselves (styles, a script, JSON made safe for a script element): never input. */
export const trustedHtml = (markup: string): SafeHtml => new SafeHtml(markup);

/** JSON inside `<script type="application/json">`: no `<` can end the element or open a comment. */
export const jsonForScript = (value: unknown): SafeHtml => new SafeHtml(JSON.stringify(value).replace(/</g, '\\u003c'));

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** Fragments one after another with `separator` (markup we write) between them. */
export const joinHtml = (fragments: readonly SafeHtml[], separator: string): SafeHtml =>
  new SafeHtml(fragments.map((fragment) => fragment.markup).join(separator));
