import type { Lang } from '@uiot/contracts';

/** The signed-in user behind a request, resolved from the bearer token alone. */
export interface SessionUser {
  tokenHash: string;
  staffId: string;
  staffName: string;
  isAdmin: boolean;
  permissions: ReadonlySet<string>;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    lang: Lang;
    /** Result code of the envelope sent, for the operation log. */
    resultCode: number | undefined;
  }
}
