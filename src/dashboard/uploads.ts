// A form with files (multipart/form-data), as the kit's uploadAction reads it. The body is read
// under the same policy as every other dashboard body (http/body.ts through the Service: a declared
// length past the cap is refused before a byte is read, and a body without one is counted as it
// streams), only with a cap that holds the files, so a body past it is a 413 before any of it is
// parsed. Within the cap, the bytes are handed to the web-standard Request.formData(), the parser
// h3 v2's event.req.formData() is, which takes both multipart and url-encoded forms.
import { AppError } from '../kernel/errors.ts';

/** A file as the browser sent it: its name as the file input gave it, and its bytes. */
interface UploadedFile {
  filename: string;
  data: Buffer;
}

export interface UploadForm {
  /** The text fields. */
  form: URLSearchParams;
  /** The files of a file input, by the input's name; an input left empty gives none. */
  files(name: string): UploadedFile[];
}

/**
 * Reads and parses a form of at most `limitBytes`; 413 with `tooLarge` past it. A body that is no
 * form at all (no or another Content-Type, a broken multipart body) reads as an empty form: it has
 * no csrf field, so the caller refuses it as a form that did not come from the dashboard.
 */
export async function readUploadForm(
  readBytes: () => Promise<Uint8Array>,
  contentType: string | null,
  tooLarge: string,
): Promise<UploadForm> {
  let bytes: Uint8Array;
  try {
    bytes = await readBytes();
  } catch (error) {
    if (error instanceof AppError && error.status === 413) throw new AppError(413, 'payload_too_large', tooLarge);
    throw error;
  }
  let parsed: FormData;
  try {
    parsed = await new Request('http://dashboard.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType ?? '' },
      // Node's buffers of a body are over a plain ArrayBuffer, never a shared one.
      body: bytes as Uint8Array<ArrayBuffer>,
    }).formData();
  } catch {
    parsed = new FormData();
  }
  const form = new URLSearchParams();
  const files = new Map<string, UploadedFile[]>();
  for (const [name, value] of parsed) {
    if (typeof value === 'string') form.append(name, value);
    // A file input left empty still sends a part: no name, no bytes.
    else if (value.name !== '' || value.size > 0) {
      const list = files.get(name) ?? [];
      list.push({ filename: value.name, data: Buffer.from(await value.arrayBuffer()) });
      files.set(name, list);
    }
  }
  return { form, files: (name) => files.get(name) ?? [] };
}
