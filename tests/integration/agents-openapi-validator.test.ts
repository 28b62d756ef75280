/**
 * /openapi.json validated by an independent OpenAPI 3.1 validator (STANDARDS 9:
 * `@readme/openapi-parser` validates 3.1; API `validate(doc)` → `{ valid, errors, warnings }`,
 * `compileErrors(result)` for a readable report).
 *
 * The package is not a dependency yet. It is loaded by a computed specifier so the type-check
 * passes without it; until it is installed this test FAILS with "not installed", on purpose: a
 * skipped validator would look like a passing one.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseJson, startAgentsServer, type AgentsServer } from '../helpers/agents-support.ts';

interface ValidationResult {
  valid: boolean;
  errors: { message: string }[];
  warnings?: { message: string }[];
}
interface OpenApiParser {
  validate: (api: object) => Promise<ValidationResult | object>;
  compileErrors?: (result: ValidationResult) => string;
}

const PARSER = '@readme/openapi-parser';

async function loadParser(): Promise<OpenApiParser | string> {
  try {
    const mod = (await import(/* @vite-ignore */ PARSER)) as Partial<OpenApiParser> & { default?: OpenApiParser };
    const parser = mod.validate ? (mod as OpenApiParser) : mod.default;
    if (!parser?.validate) return `${PARSER} has no validate() export`;
    return parser;
  } catch (error) {
    return `${PARSER} is not installed (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); add it as a devDependency`;
  }
}

let server: AgentsServer;
let docs: { name: string; doc: object }[];

beforeAll(async () => {
  // The default table, and one with a deprecated route (the document then carries `deprecated` and `x-deprecation`).
  const deprecated = await startAgentsServer({
    API_LIFECYCLE: JSON.stringify([{ path: '/startups', deprecatedAt: '2027-01-01T00:00:00Z', sunsetAt: '2027-07-01T00:00:00Z', successor: '/api/v2/startups' }]),
  });
  try {
    server = await startAgentsServer();
    const fetchDoc = async (base: string) => parseJson(await (await fetch(`${base}/openapi.json`)).text()) as object;
    docs = [
      { name: 'default', doc: await fetchDoc(server.url) },
      { name: 'with a deprecated route', doc: await fetchDoc(deprecated.url) },
    ];
  } finally {
    await deprecated.stop();
  }
});
afterAll(async () => {
  await server?.stop();
});

describe('@readme/openapi-parser', () => {
  test('is installed', async () => {
    const parser = await loadParser();
    expect(typeof parser === 'string' ? parser : 'installed').toBe('installed');
  });

  test.each(['default', 'with a deprecated route'])('validate(/openapi.json, %s) is valid with no errors', async (name) => {
    const parser = await loadParser();
    if (typeof parser === 'string') throw new Error(parser);
    const entry = docs.find((d) => d.name === name);
    expect(entry).toBeDefined();
    // The parser dereferences in place: give it a copy. Current versions resolve to
    // `{ valid, errors, warnings }`; older ones resolve to the API and throw when invalid.
    let result: ValidationResult | object;
    try {
      result = await parser.validate(structuredClone(entry?.doc as object));
    } catch (error) {
      throw new Error(`invalid OpenAPI document (${name}): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    // A valid document's result has no `errors` key at all (@readme/openapi-parser 9).
    if ('valid' in result) {
      const checked = result as ValidationResult;
      const report = parser.compileErrors && checked.errors ? parser.compileErrors(checked) : JSON.stringify(checked.errors ?? [], null, 2);
      expect(checked.errors ?? [], report).toEqual([]);
      expect(checked.valid, report).toBe(true);
    } else {
      expect((result as { openapi?: string }).openapi).toBe('3.1.0');
    }
  });
});
