// npm run generate -w @ces/client: rewrites src/openapi.generated.ts from `ces openapi`.
import { writeFileSync } from 'node:fs';
import { GENERATED_TYPES_FILE, readOpenApiDocument, renderOpenApiTypes } from './openapi-types.ts';

writeFileSync(GENERATED_TYPES_FILE, await renderOpenApiTypes(await readOpenApiDocument()));
process.stdout.write(`wrote ${GENERATED_TYPES_FILE}\n`);
