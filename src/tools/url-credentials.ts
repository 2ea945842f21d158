// Credentials in a webhook URL (https://user:pass@host/…) are the receiver's Basic authorization:
// the delivery sends them (node:http reads them from the URL), the configuration keeps them, and
// nothing else ever holds or shows them (docs/api.md#webhook-configuration). Every URL that leaves
// the configuration (an attempt record, an error message, the CLI) goes through maskUrlCredentials.
// A campaign's fiscal verifier URL is shown the same way, which is why this sits below campaigns/
// and webhooks/.

const MASK = '***';

/**
 * `url` with its password shown as *** (`https://user:***@host/…`). A user name without a password
 * is masked whole (`https://***@host/…`): a token sent as the user name is the secret itself. A
 * URL without credentials is returned unchanged, byte for byte.
 */
export function maskUrlCredentials(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL to the WHATWG parser (a row stored before validation, say): the userinfo is
    // whatever lies between "//" and the first "@" before the path.
    return url.replace(
      /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@]*)@/i,
      (_, scheme: string, userinfo: string) =>
        `${scheme}${userinfo.includes(':') ? `${userinfo.slice(0, userinfo.indexOf(':'))}:${MASK}` : MASK}@`,
    );
  }
  if (parsed.username === '' && parsed.password === '') return url;
  if (parsed.password === '') parsed.username = MASK;
  else parsed.password = MASK;
  return parsed.href;
}

/**
 * Every URL inside a free text (an error message) with its credentials masked as
 * maskUrlCredentials shows them: the userinfo between `scheme://` and the first `@` before the host.
 */
export function maskUrlCredentialsInText(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]*@/gi, (prefix) => maskUrlCredentials(prefix));
}
