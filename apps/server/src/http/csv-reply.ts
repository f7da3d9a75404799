import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** A CSV answer: its file name and its text, produced as it is sent. */
export interface CsvExport {
  fileName: string;
  content: AsyncIterable<string>;
}

/** Sends a CSV file itself (not the envelope): the endpoint wrapper leaves a reply that is sent alone. */
export function sendCsv(reply: FastifyReply, csv: CsvExport): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csv.fileName}"`)
    .send(Readable.from(csv.content));
}
