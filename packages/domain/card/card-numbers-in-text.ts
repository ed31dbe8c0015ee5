/**
 * Finding card numbers inside free text: logs must not carry them and free-text fields must not
 * store them (only the vault holds card numbers).
 */

/** The Luhn (mod 10) check digit test. False for anything but a non-empty string of digits. */
export function luhnValid(number: string): boolean {
  if (!/^\d+$/.test(number)) return false;
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let digit = number.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

const MAX_CARD_DIGITS = 19;

/** Digits, possibly split into groups by single spaces or dashes ("4242 4242 4242 4242"). */
const DIGIT_GROUPS = /\d+(?:[ -]\d+)*/g;
const GROUP = /\d+/g;

export interface TextSpan {
  start: number;
  end: number;
}

export interface CardNumberSearch {
  /** Fewest digits that count as a card number: 12 (the shortest valid) or more. */
  minDigits: number;
  /**
   * Also look inside longer digit runs: a run with a Luhn-valid stretch of 12–19 digits anywhere
   * in it counts as a whole (a card number glued to other digits, e.g. after a percent-escape),
   * and so does any run of more than 19 digits. Right for logs, where an extra redaction costs
   * nothing; too eager for refusing user text.
   */
  withinRuns: boolean;
  /** Further test of a Luhn-valid candidate, e.g. that a card brand issues such numbers. */
  plausible?: (digits: string) => boolean;
}

/**
 * Where card numbers may stand in `text`: every run of `minDigits` to 19 digits that passes Luhn,
 * whatever surrounds it (letters and underscores included, so `char_4000000000000010` counts),
 * also when written in groups separated by single spaces or dashes.
 */
export function cardNumberSpans(text: string, search: CardNumberSearch): TextSpan[] {
  if (longestDigitRun(text) < search.minDigits) return [];
  const spans: TextSpan[] = [];
  for (const run of text.matchAll(DIGIT_GROUPS)) {
    const groups = [...run[0].matchAll(GROUP)].map((group) => ({
      start: run.index + group.index,
      end: run.index + group.index + group[0].length,
      digits: group[0],
    }));
    for (const group of groups) {
      if (search.withinRuns && hidesCardNumber(group.digits)) spans.push({ start: group.start, end: group.end });
    }
    for (let first = 0; first < groups.length; first++) {
      let digits = '';
      for (let last = first; last < groups.length; last++) {
        digits += groups[last]!.digits;
        if (digits.length > MAX_CARD_DIGITS) break;
        if (digits.length >= search.minDigits && luhnValid(digits) && (search.plausible?.(digits) ?? true)) {
          spans.push({ start: groups[first]!.start, end: groups[last]!.end });
        }
      }
    }
  }
  return mergeOverlapping(spans);
}

/**
 * The most digits in one run of digit groups (as DIGIT_GROUPS matches them): a quick scan that
 * lets the many texts without a long run (ids, timestamps, paths) skip the search.
 */
function longestDigitRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      run++;
      if (run > longest) longest = run;
      continue;
    }
    // A single space or dash between two digits continues the run.
    const separator = code === 32 || code === 45;
    const next = text.charCodeAt(i + 1);
    if (!(separator && run > 0 && next >= 48 && next <= 57)) run = 0;
  }
  return longest;
}

export function containsCardNumber(text: string, search: CardNumberSearch): boolean {
  return cardNumberSpans(text, search).length > 0;
}

const MIN_CARD_DIGITS = 12;

function hidesCardNumber(digits: string): boolean {
  if (digits.length > MAX_CARD_DIGITS) return true;
  for (let length = MIN_CARD_DIGITS; length <= digits.length; length++) {
    for (let start = 0; start + length <= digits.length; start++) {
      if (luhnValid(digits.slice(start, start + length))) return true;
    }
  }
  return false;
}

function mergeOverlapping(spans: TextSpan[]): TextSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const merged: TextSpan[] = [];
  for (const span of sorted) {
    const previous = merged.at(-1);
    if (previous && span.start <= previous.end) previous.end = Math.max(previous.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}
