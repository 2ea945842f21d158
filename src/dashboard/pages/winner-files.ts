// A winner's files (GET /dashboard/winners/attachments/:attachmentId): the bytes of a step's
// attachment as they were stored, by readAttachment, which records winner.attachment_viewed under
// dashboard:<name> (a signed receipt or a winner's document is personal data). Always a download
// (Content-Disposition: attachment) with the media type the domain found by its first bytes, and
// nosniff, so that no browser renders a stored file as a page of the dashboard. A file erased with
// its participant's data is 410.
import { HTTPResponse } from 'h3';
import { notFound } from '../../kernel/errors.ts';
import { readAttachment } from '../../winners/record.ts';
import { BASE } from '../layout.ts';
import { page, routeParam, type DashboardRouter } from '../kit.ts';

export const attachmentPath = (id: number): string => `${BASE}/winners/attachments/${id}`;

export function registerWinnerFileRoutes(router: DashboardRouter): void {
  router.get(
    '/winners/attachments/:attachmentId',
    page(({ event, service, actor }) => {
      const id = routeParam(event, 'attachmentId');
      if (!/^[1-9][0-9]{0,14}$/.test(id)) throw notFound('Attachment');
      const file = readAttachment(service.ctx, Number(id), actor);
      return new HTTPResponse(new Uint8Array(file.data), {
        status: 200,
        headers: {
          'content-type': file.media_type,
          'content-length': String(file.size),
          'content-disposition': attachmentDisposition(file.filename),
          'x-content-type-options': 'nosniff',
          'x-attachment-sha256': file.sha256,
        },
      });
    }),
  );
}

/**
 * `attachment` with the name: an ASCII stand-in for old clients, and the name itself in UTF-8
 * (RFC 6266, RFC 8187), since a header's value cannot carry other characters as they are.
 */
function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
