import { api } from '@uiot/contracts';
import { bind, type RouteBinding } from '../../../http/endpoints.ts';
import type { Services } from '../../../services.ts';
import { sendXlsx } from './xlsx-file.ts';

/** Excel templates, imports and the ledger export; files are sent as they are, not in the envelope. */
export function transferRoutes(services: Services): RouteBinding[] {
  const { transfer } = services.devices;
  return [
    bind(api.unit.importTemplate, async ({ req, reply }) =>
      sendXlsx(reply, await transfer.template('unit', req.lang)),
    ),
    bind(api.device.importTemplate, async ({ query, req, reply }) =>
      sendXlsx(reply, await transfer.template(query.kind, req.lang)),
    ),
    bind(api.key.importTemplate, async ({ req, reply }) =>
      sendXlsx(reply, await transfer.template('key', req.lang)),
    ),
    bind(api.unit.import, ({ body, req }) => transfer.importUnits(body.file, req.lang)),
    bind(api.device.import, ({ body, req }) => transfer.importDevices(body.kind, body.file, req.lang)),
    bind(api.key.import, ({ body, req }) => transfer.importKeys(body.file, req.lang)),
    bind(api.device.export, async ({ query, req, reply }) =>
      sendXlsx(reply, await transfer.exportLedger(query, req.lang)),
    ),
  ];
}
