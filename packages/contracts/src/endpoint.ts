import './validation/zod-messages.ts';
import type { z } from 'zod';
import type { FeatureSwitch } from './feature-flags.ts';
import type { FileKind } from './files.ts';
import type { PermissionKey } from './permissions.ts';

/**
 * Who may call an endpoint: `public` (no session), `signedIn` (every signed-in user: only for what is the
 * user's own or meant for everybody), a permission key, or `{ anyOf }`: a holder of any of those keys (a
 * selector several pages share, such as the staff list of the device and key forms). `alarmBoard` is the
 * one kind of call a control-room board's display session may make (and nothing else may): it is not a
 * staff session, so every other endpoint refuses its token. The server's single guard enforces it; a test
 * fails on any route that declares nothing.
 */
export type Access =
  | 'public'
  | 'signedIn'
  | 'alarmBoard'
  | PermissionKey
  | { readonly anyOf: readonly PermissionKey[] };

/** Any of several keys opens an endpoint (see `Access`). */
export const anyOf = (...keys: PermissionKey[]): Access => ({ anyOf: keys });

/** The keys of which an endpoint needs one; null when it needs none (public or every signed-in user). */
export function accessKeys(access: Access): readonly PermissionKey[] | null {
  if (access === 'public' || access === 'signedIn' || access === 'alarmBoard') return null;
  return typeof access === 'string' ? [access] : access.anyOf;
}

export interface Endpoint<
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST';
  /** Path below `/api`, e.g. `/staff/loginCheck`. */
  path: string;
  access: Access;
  /** What the call does, in English: the operation log's methodDesc and the OpenAPI summary. */
  summary: string;
  /** API group (OpenAPI tag), the business module's name. */
  module: string;
  query?: Q;
  body?: B;
  /**
   * The body is `multipart/form-data` holding one file in the part named `file` (spec §7: uploads are
   * multipart) and nothing else; `body` is then left out. The server reads it before the handler, within the
   * size limit of its kind, and types it by its content; the operation log describes it by kind, size,
   * SHA-256 and name, never by its content. With several kinds, the query's `kind` names the one.
   */
  upload?: { kinds: readonly FileKind[] };
  /**
   * The answer is a file sent as it is (an export, a stored image), not the envelope; a failure still
   * answers the envelope. Sent as an attachment that no browser renders in the console's origin.
   */
  fileAnswer?: true;
  /** Schema of `data` in the envelope (for a file answer: the file). */
  response: R;
  /** A mutating call is written to the operation log; defaults to true for POST. */
  mutating?: boolean;
  /** Body fields never written to any log (passwords, codes, tokens). */
  secretFields?: readonly string[];
  /**
   * A signed-in call the console makes while the forced first-sign-in password change is pending (spec §4
   * Login): the user (getUserInfo), the feature flags, the change itself and the sign-out — nothing else.
   * Every other non-public endpoint answers HTTP 403 PasswordChangeRequired until the password is changed.
   */
  allowedBeforePasswordChange?: boolean;
  /**
   * The feature flags (spec §6) the endpoint belongs to: while one of them is off the server answers
   * FeatureDisabled naming it, before the handler runs (one gate for every endpoint, see docs/parameters.md).
   */
  features?: readonly FeatureSwitch[];
  /**
   * The call acts on a physical device (sends it something, changes its credential or registration, resets
   * its IMEI): besides `access`, the user needs the DevTypeOp grant of the device's type (`devTypeOp:{typeId}`,
   * spec §6), which the service checks for the devices it acts on (docs/security.md lists the decisions).
   */
  operatesDevice?: boolean;
}

export function defineEndpoint<
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(endpoint: Endpoint<Q, B, R>): Endpoint<Q, B, R> {
  return endpoint;
}

export type EndpointQuery<E> =
  E extends Endpoint<infer Q, z.ZodType | undefined, z.ZodType>
    ? Q extends z.ZodType
      ? z.input<Q>
      : undefined
    : never;
export type EndpointBody<E> =
  E extends Endpoint<z.ZodType | undefined, infer B, z.ZodType>
    ? B extends z.ZodType
      ? z.input<B>
      : undefined
    : never;
export type EndpointResult<E> =
  E extends Endpoint<z.ZodType | undefined, z.ZodType | undefined, infer R> ? z.output<R> : never;

export function isMutating(endpoint: Pick<Endpoint, 'method' | 'mutating'>): boolean {
  return endpoint.mutating ?? endpoint.method === 'POST';
}
