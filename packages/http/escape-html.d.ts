declare module 'escape-html' {
  /** Escapes `"`, `&`, `'`, `<` and `>`: safe in HTML text and in quoted attribute values. */
  export default function escapeHtml(text: string): string;
}
