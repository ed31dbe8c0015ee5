import { DECIDING_DIGITS, issuedLengthsOf } from './issued-card-number-lengths.ts';

/**
 * Finding card numbers in any text that is stored or logged: parameters, headers, paths, log lines.
 * Only the vault holds card numbers, so this one detector decides for every other place.
 *
 * A card number is a stretch of 12–19 digits that passes the Luhn check and has the prefix and
 * length of numbers some card brand issues (issued-card-number-lengths.ts). It is found however it
 * is written:
 * - in groups, separated by up to MAX_GAP separator characters: spaces of every kind (no-break,
 *   thin, ideographic), tabs, line breaks, dashes, dots, slashes, `+`, and invisible format
 *   characters (zero-width space, word joiner, soft hyphen);
 * - in any script's decimal digits (fullwidth `４２４２`, Arabic-Indic, …);
 * - percent-encoded, digits and separators alike (`%34%32`, `%20`, `%2D`, `%C2%A0`), as in a URL;
 * - glued to letters or other text (`char_4000000000000010`), or inside a longer run of digits
 *   (`9<number>0`, `000<number>`): any stretch of an unbroken run of digits counts, and any
 *   sequence of whole groups of a grouped run.
 *
 * One spelling is an identifier, never a card number: a UUID (`f3915144-6810-463a-a56d-7b32da28afe2`,
 * 8-4-4-4-12 hexadecimal digits, not glued to other letters or digits). Random UUIDs are what
 * clients use for idempotency keys, order references and metadata, and read as groups of digits
 * about one in 940 of them holds a stretch that passes for a card number (one in 28,000 in its
 * last group of twelve alone): refusing those would fail a merchant's request at random.
 */

const MIN_CARD_DIGITS = 12;
const MAX_CARD_DIGITS = 19;
/** Separator characters allowed between two groups of one number (`\r\n`, ` - `). */
const MAX_GAP = 3;

/** What a detected card number is replaced with wherever text is masked rather than refused. */
export const REDACTED = '[REDACTED]';

export interface TextSpan {
  start: number;
  end: number;
}

/** Where card numbers stand in `text` (merged where they overlap), in order. */
export function cardNumberSpans(text: string): TextSpan[] {
  if (!mayHoldCardNumber(text)) return [];
  const spans: TextSpan[] = [];
  const run = new DigitRun();
  const unit: Unit = { kind: OTHER, end: 0 };
  const uuids = uuidsIn(text);
  let gap = 0;
  for (let i = 0; i < text.length; i = unit.end) {
    readUnit(text, i, unit);
    if (uuids && inSpans(uuids, i)) unit.kind = OTHER;
    if (unit.kind <= 9) {
      if (gap > 0 && run.length > 0) run.startGroup();
      run.push(unit.kind, i, unit.end);
      gap = 0;
    } else if (unit.kind === SEPARATOR && run.length > 0 && gap < MAX_GAP) {
      gap++;
    } else if (run.length > 0) {
      run.collectCardNumbers(spans);
      gap = 0;
    }
  }
  run.collectCardNumbers(spans);
  return mergeOverlapping(spans);
}

export function containsCardNumber(text: string): boolean {
  return cardNumberSpans(text).length > 0;
}

/** `text` with every card number in it replaced by REDACTED. */
export function maskCardNumbers(text: string): string {
  const spans = cardNumberSpans(text);
  if (spans.length === 0) return text;
  let masked = '';
  let from = 0;
  for (const span of spans) {
    masked += text.slice(from, span.start) + REDACTED;
    from = span.end;
  }
  return masked + text.slice(from);
}

/** A UUID in its canonical spelling, not glued to other letters or digits. */
const UUID = /(?<![0-9A-Za-z])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9A-Za-z])/gi;

/** Where the UUIDs in `text` stand, in order, if it has any. */
function uuidsIn(text: string): TextSpan[] | undefined {
  if (!text.includes('-')) return undefined;
  const spans = Array.from(text.matchAll(UUID), (match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
  return spans.length > 0 ? spans : undefined;
}

const inSpans = (spans: readonly TextSpan[], at: number): boolean =>
  spans.some((span) => at >= span.start && at < span.end);

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

/**
 * Quick test that lets most texts (ids, timestamps, words) skip the search: whether some stretch
 * without other ASCII characters than digits and separators has 12 characters that could be digits
 * (an ASCII digit, a percent-escape, or any non-ASCII character).
 */
function mayHoldCardNumber(text: string): boolean {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 37 && escapedByte(text, i) >= 0) {
      // An escape is one character, digit or separator alike.
      if (++count >= MIN_CARD_DIGITS) return true;
      i += 2;
    } else if ((code >= 48 && code <= 57) || code > 127) {
      if (++count >= MIN_CARD_DIGITS) return true;
    } else if (asciiKind(code) !== SEPARATOR) {
      count = 0;
    }
  }
  return false;
}

/** What a unit of text is: a digit (its value, 0–9), a separator, or neither. */
type UnitKind = number;
const SEPARATOR: UnitKind = 10;
const OTHER: UnitKind = 11;

/** One character of the text, or one percent-encoded character, and the index just after it. */
interface Unit {
  kind: UnitKind;
  end: number;
}

/** Reads the unit at `at` into `unit` (one object for a whole text: this runs on every character logged). */
function readUnit(text: string, at: number, unit: Unit): void {
  const code = text.charCodeAt(at);
  if (code < 128 && code !== 37) {
    unit.kind = asciiKind(code);
    unit.end = at + 1;
    return;
  }
  if (code === 37) {
    const decoded = percentDecoded(text, at);
    if (decoded) {
      unit.kind = kindOf(decoded.codePoint);
      unit.end = decoded.end;
      return;
    }
  }
  const codePoint = text.codePointAt(at)!;
  unit.kind = kindOf(codePoint);
  unit.end = at + (codePoint > 0xffff ? 2 : 1);
}

/** Space, `+`, `-`, `.`, `/`, and tab, line feed, vertical tab, form feed, carriage return. */
function asciiKind(code: number): UnitKind {
  if (code >= 48 && code <= 57) return code - 48;
  const separator =
    code === 32 || code === 43 || code === 45 || code === 46 || code === 47 || (code >= 9 && code <= 13);
  return separator ? SEPARATOR : OTHER;
}

/** Spaces, line and paragraph separators, invisible format characters, dashes; fullwidth `+` `.` `/`. */
const OTHER_SEPARATOR = /^[\p{Zs}\p{Zl}\p{Zp}\p{Cf}\p{Pd}\u0085\uff0b\uff0e\uff0f]$/u;
const DECIMAL_DIGIT = /^\p{Nd}$/u;
const nonAsciiKinds = new Map<number, UnitKind>();

function kindOf(codePoint: number): UnitKind {
  if (codePoint < 128) return asciiKind(codePoint);
  let kind = nonAsciiKinds.get(codePoint);
  if (kind === undefined) {
    const character = String.fromCodePoint(codePoint);
    if (DECIMAL_DIGIT.test(character)) kind = decimalValue(codePoint);
    else kind = OTHER_SEPARATOR.test(character) ? SEPARATOR : OTHER;
    // Bounded by the characters of the texts seen: few scripts, few symbols.
    if (nonAsciiKinds.size < 10_000) nonAsciiKinds.set(codePoint, kind);
  }
  return kind;
}

/**
 * Unicode encodes every script's decimal digits as ten consecutive code points, 0 to 9: the value
 * is the distance from the start of the run of digit code points, modulo ten.
 */
function decimalValue(codePoint: number): number {
  let first = codePoint;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(first - 1))) first--;
  return (codePoint - first) % 10;
}

/** The character that `%XX` escapes (one to four of them, UTF-8) starting at `at` encode, if any. */
function percentDecoded(text: string, at: number): { codePoint: number; end: number } | undefined {
  const lead = escapedByte(text, at);
  if (lead < 0) return undefined;
  if (lead < 0x80) return { codePoint: lead, end: at + 3 };
  const continuations = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : -1;
  if (continuations < 0) return undefined;
  let codePoint = lead & (0x3f >> continuations);
  let end = at + 3;
  for (let n = 0; n < continuations; n++, end += 3) {
    const byte = escapedByte(text, end);
    if (byte < 0x80 || byte > 0xbf) return undefined;
    codePoint = (codePoint << 6) | (byte & 0x3f);
  }
  return codePoint <= 0x10ffff ? { codePoint, end } : undefined;
}

/** The byte of a `%XX` escape at `at`, or -1. */
function escapedByte(text: string, at: number): number {
  if (text.charCodeAt(at) !== 37) return -1;
  const high = hexValue(text.charCodeAt(at + 1));
  const low = hexValue(text.charCodeAt(at + 2));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

const DIGITS = '0123456789';

/**
 * Digits read so far that belong together (an unbroken run, or groups with separators between),
 * with where each stands in the text.
 */
class DigitRun {
  private digits = '';
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** Index in `digits` where each group begins. */
  private groups: number[] = [0];

  get length(): number {
    return this.digits.length;
  }

  push(digit: number, start: number, end: number): void {
    this.digits += DIGITS[digit]!;
    this.starts.push(start);
    this.ends.push(end);
  }

  startGroup(): void {
    this.groups.push(this.digits.length);
  }

  /** Adds the text spans of the card numbers in the run to `spans`, and empties the run. */
  collectCardNumbers(spans: TextSpan[]): void {
    if (this.digits.length >= MIN_CARD_DIGITS) {
      // Made when first needed: most runs (timestamps, references) have no brand's prefix.
      let sums: LuhnSums | undefined;
      const luhnValid = (from: number, to: number) => (sums ??= new LuhnSums(this.digits)).valid(from, to);
      const bounds = [...this.groups, this.digits.length];
      const found = (from: number, to: number) => spans.push({ start: this.starts[from]!, end: this.ends[to - 1]! });
      for (let g = 0; g + 1 < bounds.length; g++) {
        // Any stretch of one unbroken group.
        const [groupStart, groupEnd] = [bounds[g]!, bounds[g + 1]!];
        for (let from = groupStart; from + MIN_CARD_DIGITS <= groupEnd; from++) {
          const lengths = issuedLengthsOf(this.digits.slice(from, from + DECIDING_DIGITS));
          if (lengths === 0) continue;
          for (let length = MIN_CARD_DIGITS; length <= MAX_CARD_DIGITS && from + length <= groupEnd; length++) {
            if (lengths & (1 << length) && luhnValid(from, from + length)) found(from, from + length);
          }
        }
        // Whole groups, from this one to a later one.
        const lengths = issuedLengthsOf(this.digits.slice(groupStart, groupStart + DECIDING_DIGITS));
        if (lengths === 0) continue;
        for (let last = g + 1; last + 1 < bounds.length; last++) {
          const end = bounds[last + 1]!;
          const length = end - groupStart;
          if (length > MAX_CARD_DIGITS) break;
          if (length >= MIN_CARD_DIGITS && lengths & (1 << length) && luhnValid(groupStart, end))
            found(groupStart, end);
        }
      }
    }
    this.digits = '';
    this.starts.length = 0;
    this.ends.length = 0;
    this.groups = [0];
  }
}

/**
 * The Luhn check of any stretch of a digit string in constant time: prefix sums of the digits and
 * of their doubles, by the parity of their position. In a stretch, the last digit is not doubled,
 * the one before it is, and so on.
 */
class LuhnSums {
  /** plain[p][k]: sum of the digits before position k whose position has parity p; doubled likewise. */
  private readonly plain: [number[], number[]] = [[0], [0]];
  private readonly doubled: [number[], number[]] = [[0], [0]];

  constructor(digits: string) {
    for (let k = 0; k < digits.length; k++) {
      const digit = digits.charCodeAt(k) - 48;
      const twice = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      for (const parity of [0, 1] as const) {
        const own = k % 2 === parity;
        this.plain[parity].push(this.plain[parity][k]! + (own ? digit : 0));
        this.doubled[parity].push(this.doubled[parity][k]! + (own ? twice : 0));
      }
    }
  }

  valid(from: number, to: number): boolean {
    const undoubled = ((to - 1) % 2) as 0 | 1;
    const doubled = (1 - undoubled) as 0 | 1;
    const sum =
      this.plain[undoubled][to]! -
      this.plain[undoubled][from]! +
      this.doubled[doubled][to]! -
      this.doubled[doubled][from]!;
    return sum % 10 === 0;
  }
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
