// The release, as package.json names it: `ces --version` prints it and the OpenAPI document's
// info.version is it (test/slow/build.test.ts and test/openapi.test.ts compare both with package.json).
export const VERSION = '0.1.0';

// The User-Agent of every request ces sends (webhook deliveries, verifier calls, Caixa's results
// API): one value, following the release, so a receiver's logs say which ces called.
export const USER_AGENT = `ces/${VERSION}`;
