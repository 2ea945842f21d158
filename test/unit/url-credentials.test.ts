// maskUrlCredentials (src/tools/url-credentials.ts): the one way a webhook URL is shown or
// recorded outside its configuration. The password never survives; everything else does.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { maskUrlCredentials } from '../../src/tools/url-credentials.ts';

describe('maskUrlCredentials', () => {
  const cases: Array<[url: string, shown: string, rule: string]> = [
    ['https://user:pass@hooks.example/in?x=1#f', 'https://user:***@hooks.example/in?x=1#f', 'the password becomes ***, the rest stays'],
    ['https://user:p%40ss%3Aword@hooks.example/', 'https://user:***@hooks.example/', 'an encoded password goes whole'],
    ['https://tok3n@hooks.example/', 'https://***@hooks.example/', 'a user name alone may be the token: masked whole'],
    ['https://:pass@hooks.example/', 'https://:***@hooks.example/', 'a password without a user name'],
    ['https://hooks.example/in', 'https://hooks.example/in', 'no credentials: unchanged'],
    ['https://hooks.example', 'https://hooks.example', 'unchanged byte for byte, not normalised'],
    ['https://user:pass@exa mple/', 'https://user:***@exa mple/', 'not a URL to the parser: masked all the same'],
    ['https://tok3n@exa mple/', 'https://***@exa mple/', 'and a lone user name too'],
  ];
  for (const [url, shown, rule] of cases) test(rule, () => assert.equal(maskUrlCredentials(url), shown));
});
