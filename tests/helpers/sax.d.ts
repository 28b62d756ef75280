/** The part of `sax` (which ships no types) that tests/helpers/xml.ts uses. */
declare module 'sax' {
  interface Tag {
    name: string;
    attributes: Record<string, string>;
  }
  interface SAXParser {
    onerror: (error: Error) => void;
    onopentag: (tag: Tag) => void;
    onclosetag: (name: string) => void;
    ontext: (text: string) => void;
    write(text: string): SAXParser;
    close(): SAXParser;
  }
  const sax: { parser(strict: boolean, options?: { trim?: boolean; normalize?: boolean; xmlns?: boolean }): SAXParser };
  export default sax;
}
