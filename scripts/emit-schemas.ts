/**
 * `npm run emit-schemas`: write the JSON Schema of every content type to `generated/schemas/`
 * (editors point their YAML tooling at these; see docs/editing-content.md).
 */
import { loadConfig } from '../functions/config.ts';
import { emitJsonSchemas } from '../src/pipeline/emit.ts';

const written = await emitJsonSchemas(loadConfig().generatedDir);
console.error(`wrote ${written.length} JSON Schemas:\n${written.join('\n')}`);
