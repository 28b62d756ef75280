/**
 * Linear-time scanners for the inline Markdown the site reads: `[text](url)` links and
 * backtick code spans, shared by the HTML renderer and the Markdown content policy so both read
 * content the same way. Bounded by construction (issue 11, item 14: the link regex took 420 ms
 * on a 20,000-character line of `[`): link text is 1 to 500 characters without brackets, a URL
 * runs to the first space or `)` and at most 2,048 characters, and every scan moves forward
 * only or is cached, so a line costs a constant number of steps per character.
 */

/** Longest link text (characters between the brackets). */
const LINK_TEXT_MAX = 500;
/** Longest link URL (characters between the parentheses). */
export const LINK_URL_MAX = 2048;

let steps = 0;

/**
 * Characters the scanners have examined since the process started: tests compare it across
 * input sizes to show the work is linear, without timing anything.
 */
export const scanSteps = (): number => steps;

/** A `[text](url)` found on a line: its parts, and the index just after its `)`. */
export interface InlineLink {
  text: string;
  url: string;
  end: number;
}

/**
 * The scanners of one line. Ask in increasing positions (left to right), as a renderer does:
 * the caches assume it.
 * @example new LineScanner('[a](https://x.example)').linkAt(0) // { text: 'a', url: 'https://x.example', end: 22 }
 */
export class LineScanner {
  private readonly line: string;
  /** The first space or `)` at or after `stopFrom` is at `stopAt` (the same for every position up to it). */
  private stopFrom = -1;
  private stopAt = -1;
  /** Start of each maximal backtick run, by run length; built on first use. */
  private runs: Map<number, number[]> | undefined;
  private readonly runCursor = new Map<number, number>();

  constructor(line: string) {
    this.line = line;
  }

  /** The link whose `[` is at `open`, or undefined when none starts there. */
  linkAt(open: number): InlineLink | undefined {
    const { line } = this;
    let close = open + 1;
    // Link text: no brackets, so an opening bracket is only ever paired with the next `]`.
    for (; close < line.length && close - open - 1 <= LINK_TEXT_MAX; close++) {
      steps++;
      const c = line[close];
      if (c === ']') break;
      if (c === '[') return undefined;
    }
    const textLength = close - open - 1;
    if (line[close] !== ']' || textLength < 1 || textLength > LINK_TEXT_MAX || line[close + 1] !== '(') return undefined;
    const urlStart = close + 2;
    const stop = this.stopAfter(urlStart);
    if (stop === urlStart || stop - urlStart > LINK_URL_MAX || line[stop] !== ')') return undefined;
    return { text: line.slice(open + 1, close), url: line.slice(urlStart, stop), end: stop + 1 };
  }

  /** Start of the first backtick run of exactly `length` at or after `from`, or -1 (CommonMark's closing run). */
  closingRun(from: number, length: number): number {
    const starts = (this.runs ??= this.indexRuns()).get(length);
    if (!starts) return -1;
    let cursor = this.runCursor.get(length) ?? 0;
    while (cursor < starts.length && (starts[cursor] as number) < from) {
      steps++;
      cursor++;
    }
    this.runCursor.set(length, cursor);
    return cursor < starts.length ? (starts[cursor] as number) : -1;
  }

  // --- internal ---

  /** Index of the first white space or `)` at or after `from` (the line's length when none). */
  private stopAfter(from: number): number {
    if (from >= this.stopFrom && from <= this.stopAt) return this.stopAt;
    let at = from;
    while (at < this.line.length && !/[\s)]/.test(this.line[at] as string)) {
      steps++;
      at++;
    }
    this.stopFrom = from;
    this.stopAt = at;
    return at;
  }

  private indexRuns(): Map<number, number[]> {
    const runs = new Map<number, number[]>();
    const { line } = this;
    for (let i = 0; i < line.length;) {
      steps++;
      if (line[i] !== '`') {
        i++;
        continue;
      }
      const start = i;
      while (line[i] === '`') i++;
      const length = i - start;
      steps += length;
      let list = runs.get(length);
      if (!list) runs.set(length, (list = []));
      list.push(start);
    }
    return runs;
  }
}

/** Length of the backtick run that starts at `at` (0 when there is none). */
export function backtickRun(text: string, at: number): number {
  let end = at;
  while (text[end] === '`') end++;
  return end - at;
}

/**
 * What a CommonMark reader takes from the raw content of a code span: one space stripped from
 * each side when both sides are spaces and the content is not all spaces.
 * @example codeSpanText(' `x` ') // '`x`'
 */
export function codeSpanText(raw: string): string {
  return raw.length > 1 && raw.startsWith(' ') && raw.endsWith(' ') && /[^ ]/.test(raw) ? raw.slice(1, -1) : raw;
}
