import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn, uploaded } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

/** The upload of the file store; downloads are the endpoints of what refers to each file. */
export function filesRoutes({ files }: Services): RouteBinding[] {
  return [bind(api.file.upload, (ctx) => files.save(uploaded(ctx), signedIn(ctx).staffId))];
}
