// Reading an answer's body with a size cap, for the outgoing calls whose answer ces parses: the
// fiscal verifier's verdict (src/pipeline/verifier.ts) and Caixa's results (src/draws/loteria.ts).
// Neither may hold the process on an endless or huge body: the read stops past the cap.

/** The body as text, or null once it passes `maxBytes` (the rest is not read: the stream is cancelled). */
export async function readCappedBody(stream: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string | null> {
  if (!stream) return '';
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
