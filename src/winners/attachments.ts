// A step's attachments (docs/operations.md#winners-ces-winners): the signed Termo de Quitação e Entrega
// de Prêmio, a notification's proof, the winner's documents. PDF, JPEG or PNG, known by their
// first bytes whatever the name says, 1 byte to 10 MiB each, kept in the database with their
// SHA-256 so that the prestação de contas can name each one and anyone can check a copy.
import { createHash } from 'node:crypto';
import { AppError, fieldName, type FieldErrorCode } from '../kernel/errors.ts';
import { MAX_NAME_LENGTH, operatorTextProblem } from '../input/operator-text.ts';

export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** At most this many files on one step. */
export const MAX_ATTACHMENTS = 5;

const SIGNATURES: ReadonlyArray<{ mediaType: string; magic: Buffer }> = [
  { mediaType: 'application/pdf', magic: Buffer.from('%PDF-', 'latin1') },
  { mediaType: 'image/jpeg', magic: Buffer.from([0xff, 0xd8, 0xff]) },
  { mediaType: 'image/png', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
];

/** The media types a step's files may have, as their first bytes tell them. */
export const ATTACHMENT_MEDIA_TYPES = SIGNATURES.map((s) => s.mediaType);

/** A file as the operator hands it in: its name (the last part of a path) and its bytes. */
export interface IncomingFile {
  filename: string;
  data: Buffer;
}

interface CheckedFile extends IncomingFile {
  mediaType: string;
  size: number;
  sha256: string;
}

/** The media type of `data` by its first bytes; null when it is none of the three. */
export function sniffMediaType(data: Buffer): string | null {
  return SIGNATURES.find((s) => data.subarray(0, s.magic.length).equals(s.magic))?.mediaType ?? null;
}

/** Checks the files of one step; 422 naming the field `attach` and the file otherwise. */
export function checkAttachments(files: readonly IncomingFile[]): CheckedFile[] {
  if (files.length > MAX_ATTACHMENTS) throw refused(`at most ${MAX_ATTACHMENTS} files may be attached to one step, got ${files.length}`);
  return files.map((file) => {
    const name = file.filename.split(/[\\/]/).pop()!.trim();
    const problem = operatorTextProblem(`the name of ${fieldName('attach')}`, name, MAX_NAME_LENGTH);
    if (name === '') throw refused(`${fieldName('attach')} needs a file name`, 'required');
    if (problem) throw refused(problem.message, problem.code);
    if (file.data.length === 0) throw refused(`${fieldName('attach')} "${name}" is empty`);
    if (file.data.length > MAX_ATTACHMENT_BYTES)
      throw refused(`${fieldName('attach')} "${name}" has ${file.data.length} bytes: at most ${MAX_ATTACHMENT_BYTES} (10 MiB)`);
    const mediaType = sniffMediaType(file.data);
    if (mediaType === null) throw refused(`${fieldName('attach')} "${name}" is not a PDF, JPEG or PNG file (by its first bytes)`);
    return {
      filename: name,
      data: file.data,
      mediaType,
      size: file.data.length,
      sha256: createHash('sha256').update(file.data).digest('hex'),
    };
  });
}

function refused(message: string, code: FieldErrorCode = 'invalid_option'): AppError {
  return new AppError(422, 'invalid_attachment', message, [{ field: 'attach', code, message }]);
}
