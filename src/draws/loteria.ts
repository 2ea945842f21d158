// Loteria Federal results from Caixa's public results API, for results read rather than typed: one
// extraction at `{CES_LOTERIA_URL}/federal/{N}` (the latest at `{base}/federal`), JSON with at
// least `numero`, `dataApuracao` ("DD/MM/YYYY"), `listaDezenas` (the five prizes' tickets, six
// characters each: "050366") and `dezenasSorteadasOrdemSorteio` (the same tickets in the order of
// the extraction, the 1st prize first). `listaDezenas` alone is not trusted with the order: Caixa's
// answers for other games give it sorted, and a sorted list read as the 1st to 5th prizes decides
// another winner. The prizes are taken in the extraction's order, and the two lists must hold the
// same five tickets, in the same order unless `listaDezenas` is merely the sorted one; any other
// disagreement, or an answer without the ordered list, is refused (loteria_bad_answer): the prizes
// are then typed from Caixa's published result. The parsing is pure (parseFederalAnswer); fetchFederalResult makes the
// call: each attempt bounded as a whole (connection, headers and body) by CES_LOTERIA_TIMEOUT_MS,
// the body by 64 KiB, up to 3 attempts with a short back-off when the network, a timeout or a 5xx
// failed. Nothing here records anything: the operator confirms what was read first (cli/).
import { setTimeout as sleep } from 'node:timers/promises';
import { ofetch } from 'ofetch';
import { readCappedBody } from '../tools/capped-body.ts';
import { AppError } from '../kernel/errors.ts';
import { describeFetchError } from '../tools/fetch-error.ts';
import { checkDistinctPrizes } from './extraction-rules.ts';
import { parsePrizes } from './formation.ts';
import { USER_AGENT } from '../kernel/version.ts';

/** An extraction as read from Caixa: its number, its date (YYYY-MM-DD) and the five 5-digit tickets. */
interface FederalExtraction {
  number: number;
  date: string;
  prizes: string[];
}

export interface FetchedExtraction extends FederalExtraction {
  url: string;
  attempts: number;
}

/** Largest answer read: a Caixa record is about 2 KiB; a longer answer is not one. */
const MAX_LOTERIA_ANSWER_BYTES = 64 * 1024;
const LOTERIA_ATTEMPTS = 3;
/** Waits before the 2nd and 3rd attempts. */
const LOTERIA_BACKOFF_MS = [250, 1000] as const;

/** Longest part of the answer an error quotes: enough to recognise it, never a page of it in a terminal. */
const MAX_QUOTED_CHARACTERS = 200;

/**
 * A value read from the answer as an error quotes it: JSON (one line, control characters escaped),
 * cut after MAX_QUOTED_CHARACTERS with the count of what was left out.
 */
function quoteAnswerValue(value: unknown): string {
  const json = JSON.stringify(value) ?? 'nothing';
  if (json.length <= MAX_QUOTED_CHARACTERS) return json;
  // Not between the halves of a surrogate pair.
  const cut = json.slice(0, MAX_QUOTED_CHARACTERS).replace(/[\uD800-\uDBFF]$/, '');
  return `${cut}… (${json.length - cut.length} more characters)`;
}

const badAnswer = (url: string, why: string): AppError =>
  new AppError(502, 'loteria_bad_answer', `Caixa's results API (${url}) gave an answer that cannot be used: ${why}`);

/** The record's address: one extraction, or the latest without a number. */
function federalResultUrl(baseUrl: string, extraction: number | null): string {
  return extraction === null ? `${baseUrl}/federal` : `${baseUrl}/federal/${extraction}`;
}

/** "25/11/2026" -> "2026-11-25", or null when it is not a real date in that form. */
function parseCaixaDate(value: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value.trim());
  if (!m) return null;
  const [, dd, mm, yyyy] = m;
  const at = new Date(Date.UTC(Number(yyyy), Number(mm) - 1, Number(dd)));
  const iso = `${yyyy}-${mm}-${dd}`;
  return at.toISOString().slice(0, 10) === iso ? iso : null;
}

/**
 * The extraction in an answer's text. `asked` is the extraction number requested (null for the
 * latest): an answer about another one is refused, as is anything but five valid prizes.
 */
function parseFederalAnswer(text: string, asked: number | null, url: string): FederalExtraction {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badAnswer(url, 'the body is not JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badAnswer(url, 'the body is not a JSON object');
  const { numero, dataApuracao, listaDezenas } = body as Record<string, unknown>;
  if (typeof numero !== 'number' || !Number.isInteger(numero) || numero < 1 || numero > 999_999)
    throw badAnswer(url, `"numero" must be the extraction number (1 to 999999), got ${quoteAnswerValue(numero)}`);
  if (asked !== null && numero !== asked) throw badAnswer(url, `it is about extraction ${numero}, not ${asked}`);
  const date = typeof dataApuracao === 'string' ? parseCaixaDate(dataApuracao) : null;
  if (date === null) throw badAnswer(url, `"dataApuracao" must be a date DD/MM/YYYY, got ${quoteAnswerValue(dataApuracao)}`);
  const listed = readTickets(url, 'listaDezenas', listaDezenas);
  const ordered = readTickets(url, 'dezenasSorteadasOrdemSorteio', (body as Record<string, unknown>).dezenasSorteadasOrdemSorteio);
  if ([...listed].sort().join() !== [...ordered].sort().join())
    throw badAnswer(
      url,
      `"listaDezenas" (${listed.join(', ')}) and "dezenasSorteadasOrdemSorteio" (${ordered.join(', ')}) do not hold the same five tickets`,
    );
  const sortedView = listed.join() === [...listed].sort().join();
  if (listed.join() !== ordered.join() && !sortedView)
    throw badAnswer(
      url,
      `"listaDezenas" (${listed.join(', ')}) and "dezenasSorteadasOrdemSorteio" (${ordered.join(', ')}) give the prizes in different orders`,
    );
  try {
    checkDistinctPrizes(ordered);
  } catch (error) {
    if (error instanceof AppError) throw badAnswer(url, error.message);
    throw error;
  }
  return { number: numero, date, prizes: ordered };
}

/** One of the answer's lists of the five tickets, as 5-digit prizes; loteria_bad_answer naming the list otherwise. */
function readTickets(url: string, name: string, list: unknown): string[] {
  if (list === undefined || list === null)
    throw badAnswer(url, `"${name}" (the five prizes${name === 'listaDezenas' ? '' : ' in the order of the extraction'}) is missing`);
  if (!Array.isArray(list)) throw badAnswer(url, `"${name}" is not a list of tickets`);
  if (list.length !== 5) throw badAnswer(url, `"${name}" has ${list.length} prizes; an extraction has exactly 5 (1st to 5th)`);
  const notText = list.findIndex((p) => typeof p !== 'string');
  if (notText !== -1) throw badAnswer(url, `prize ${notText + 1} is ${quoteAnswerValue(list[notText])}, not a ticket number`);
  try {
    return parsePrizes(list as string[]);
  } catch (error) {
    if (error instanceof AppError) throw badAnswer(url, error.message);
    throw error;
  }
}

type Exchange = { kind: 'answer'; status: number; text: string | null } | { kind: 'failed'; error: string };

/** One GET, its answer's body read (2xx only) within the deadline and the cap. */
async function requestOnce(url: string, timeoutMs: number): Promise<Exchange> {
  try {
    const res = await ofetch.raw<ReadableStream<Uint8Array>, 'stream'>(url, {
      method: 'GET',
      headers: { accept: 'application/json', 'user-agent': USER_AGENT },
      responseType: 'stream',
      ignoreResponseError: true,
      retry: 0,
      // Covers the body too: the stream is read under the same signal.
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    if (res.status < 200 || res.status > 299) {
      await res._data?.cancel().catch(() => undefined);
      return { kind: 'answer', status: res.status, text: null };
    }
    return { kind: 'answer', status: res.status, text: await readCappedBody(res._data ?? null, MAX_LOTERIA_ANSWER_BYTES) };
  } catch (error) {
    const cause = describeFetchError(error);
    return { kind: 'failed', error: cause === 'timed out' ? `no complete answer within ${timeoutMs} ms` : cause };
  }
}

const retryable = (x: Exchange): boolean => x.kind === 'failed' || x.status >= 500;

/**
 * Reads one extraction (the latest when `extraction` is null) from Caixa. Throws AppError:
 * loteria_unavailable (no answer, a timeout or a 5xx after every attempt; another non-2xx at once),
 * loteria_not_found (404: no such extraction published yet), loteria_bad_answer (over 64 KiB, not
 * JSON, not five valid prizes, lists of prizes that disagree, another extraction).
 */
export async function fetchFederalResult(options: {
  baseUrl: string;
  timeoutMs: number;
  extraction: number | null;
  backoffMs?: readonly number[];
}): Promise<FetchedExtraction> {
  const url = federalResultUrl(options.baseUrl, options.extraction);
  const backoff = options.backoffMs ?? LOTERIA_BACKOFF_MS;
  let attempts = 0;
  let last: Exchange;
  for (;;) {
    attempts++;
    last = await requestOnce(url, options.timeoutMs);
    if (!retryable(last) || attempts >= LOTERIA_ATTEMPTS) break;
    await sleep(backoff[attempts - 1] ?? backoff.at(-1) ?? 0);
  }
  const tries = attempts === 1 ? '' : ` (${attempts} attempts)`;
  if (last.kind === 'failed')
    throw new AppError(503, 'loteria_unavailable', `Caixa's results API (${url}) did not answer${tries}: ${last.error}`);
  if (last.status === 404)
    throw new AppError(
      404,
      'loteria_not_found',
      `Caixa has no result ${options.extraction === null ? '' : `for extraction ${options.extraction} `}(${url} answered HTTP 404): not published yet?`,
    );
  if (last.status < 200 || last.status > 299)
    throw new AppError(503, 'loteria_unavailable', `Caixa's results API (${url}) answered HTTP ${last.status}${tries}`);
  if (last.text === null) throw badAnswer(url, `it is longer than ${MAX_LOTERIA_ANSWER_BYTES / 1024} KiB`);
  return { ...parseFederalAnswer(last.text, options.extraction, url), url, attempts };
}
