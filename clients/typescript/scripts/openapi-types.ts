// The client's types from the server's OpenAPI document: `ces openapi` (the document GET
// /openapi.json serves) through openapi-typescript, formatted with the repository's prettier
// settings. Used by scripts/generate-types.ts to write src/openapi.generated.ts and by
// test/generated-types.test.ts to fail when that file no longer matches the server.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';

export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const GENERATED_TYPES_FILE = fileURLToPath(new URL('../src/openapi.generated.ts', import.meta.url));

const HEADER = `// Generated from \`ces openapi\` by openapi-typescript (clients/typescript/scripts/generate-types.ts).
// Do not edit: run \`npm run generate -w @ces/client\` after changing the API; a test fails while
// this file differs from what the server documents.
`;

/** The OpenAPI document as the `ces` CLI prints it (the real binary's source, through tsx). */
export async function readOpenApiDocument(): Promise<OpenAPI3> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'cli/ces.ts', 'openapi'], {
    cwd: REPOSITORY_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as OpenAPI3;
}

/** The text of src/openapi.generated.ts for this document. */
export async function renderOpenApiTypes(document: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document, { alphabetize: false });
  const prettier = await resolveConfig(GENERATED_TYPES_FILE);
  return format(HEADER + astToString(ast), { ...prettier, filepath: GENERATED_TYPES_FILE });
}
