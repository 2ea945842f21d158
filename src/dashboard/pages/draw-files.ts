// A draw's files: the frozen canonical list (GET /dashboard/draws/:drawId/numbers), as
// `ces draw numbers` writes it: text/plain, one `S/EEEEE` a line, ascending, the exact bytes
// numbers_sha256 is the SHA-256 of. It is streamed a series at a time from the frozen set
// (frozenNumbersText), so a draw of millions of numbers is never one string in memory. The
// numbers are not personal data and the download changes nothing: a GET, not recorded.
import { HTTPResponse } from 'h3';
import { frozenNumbersText, getDraw } from '../../draws/draws.ts';
import { page, routeParam, type DashboardRouter } from '../routes.ts';

export function registerDrawFileRoutes(router: DashboardRouter): void {
  router.get(
    '/draws/:drawId/numbers',
    page(({ event, service }) => {
      const id = routeParam(event, 'drawId');
      const chunks = frozenNumbersText(service.ctx, id);
      const draw = getDraw(service.ctx, id);
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
      });
      return new HTTPResponse(body, {
        status: 200,
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          'content-disposition': `attachment; filename="draw-${id}-numbers.txt"`,
          'x-numbers-sha256': draw.numbers_sha256 ?? '',
        },
      });
    }),
  );
}
