// The release, as package.json names it: `ces --version` prints it and the OpenAPI document's
// info.version is it (test/slow/build.test.ts and test/openapi.test.ts compare both with package.json).
export const VERSION = '0.1.0';
