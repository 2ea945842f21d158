// How many exports one dashboard session may have downloading at once. Each download holds a
// database connection and a snapshot of the campaign's personal data until the browser has read its
// last byte, so a session that starts download after download (a script, a stuck tab) is refused
// with 429 too_many_exports past MAX_EXPORTS_PER_SESSION, rather than holding connections open.
import { AppError } from '../kernel/errors.ts';

/** Downloads one session may have running at once; one more is 429 too_many_exports. */
const MAX_EXPORTS_PER_SESSION = 2;

/** A download: the stream the browser reads, with whatever else its starter returns. */
interface Download {
  stream: ReadableStream<Uint8Array>;
}

/** The downloads running per session, for one dashboard (the routes of one server). */
interface ExportLimit {
  /**
   * Starts a download in one of the session's slots: refused (429 too_many_exports) before `start`
   * runs when the session has MAX_EXPORTS_PER_SESSION running, so a refused download records
   * nothing. The slot is held until the returned stream ends: read to its last byte, failed, or
   * cancelled (the browser went away or the download was stopped).
   */
  start<T extends Download>(sessionId: string, start: () => T): T;
}

export function createExportLimit(): ExportLimit {
  const downloading = new Map<string, number>();
  return {
    start(sessionId, start) {
      const running = downloading.get(sessionId) ?? 0;
      if (running >= MAX_EXPORTS_PER_SESSION)
        throw new AppError(
          429,
          'too_many_exports',
          `${MAX_EXPORTS_PER_SESSION} exports of this session are still downloading. Wait until one has finished (or cancel it in the browser), then try again.`,
        );
      const download = start();
      downloading.set(sessionId, running + 1);
      const release = (): void => {
        const left = (downloading.get(sessionId) ?? 1) - 1;
        if (left > 0) downloading.set(sessionId, left);
        else downloading.delete(sessionId);
      };
      return { ...download, stream: releasingAtEnd(download.stream, release) };
    },
  };
}

/**
 * `stream`, calling `release` once when it ends. Counted as the browser reads, not as the export
 * is written: a download is running for as long as its bytes are still on their way.
 */
function releasingAtEnd(stream: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let released = false;
  const releaseOnce = (): void => {
    if (released) return;
    released = true;
    release();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          releaseOnce();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        releaseOnce();
        controller.error(error);
      }
    },
    cancel(reason) {
      releaseOnce();
      return reader.cancel(reason);
    },
  });
}
