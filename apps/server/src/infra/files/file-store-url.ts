/** Where an S3-compatible object store keeps the files (FILE_STORE_URL). */
export interface S3Location {
  /** `https://host[:port]`, or `http://` for `s3+http://`. */
  endpoint: string;
  bucket: string;
  /** Key prefix inside the bucket (`uiot/` for `…/bucket/uiot`), empty for the bucket's root. */
  prefix: string;
  region: string;
  /** Bucket in the path (`host/bucket/key`) rather than in the host name; what most S3-compatible servers need. */
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
}

export type FileStoreUrl = { ok: true; location: S3Location } | { ok: false; problem: string };

const PROTOCOLS: Record<string, 'https' | 'http'> = { 's3:': 'https', 's3+http:': 'http' };
const PARAMS = new Set(['region', 'forcePathStyle']);
/** S3's rule for bucket names (3–63 lower-case letters, digits, dots and hyphens). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]{1,32}$/;
const FORMAT = 's3://ACCESS_KEY:SECRET_KEY@host[:port]/bucket[/prefix][?region=…&forcePathStyle=true|false]';

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * Reads FILE_STORE_URL. A problem names what is wrong and never repeats the URL, which holds the secret
 * key. `s3://` reaches the store over HTTPS, `s3+http://` over plain HTTP (a store on the operator's own
 * network); the keys are percent-encoded where they hold `/`, `+`, `@` or `:`.
 */
export function parseFileStoreUrl(text: string): FileStoreUrl {
  const fail = (problem: string): FileStoreUrl => ({ ok: false, problem });
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return fail(`must be a URL like ${FORMAT}`);
  }
  const scheme = PROTOCOLS[url.protocol];
  if (!scheme) return fail(`must start with s3:// (HTTPS) or s3+http:// (plain HTTP), like ${FORMAT}`);
  if (!url.hostname) return fail(`must name the store's host, like ${FORMAT}`);
  const accessKeyId = decoded(url.username);
  const secretAccessKey = decoded(url.password);
  if (!accessKeyId || !secretAccessKey) {
    return fail('must carry the access key and the secret key before the host (ACCESS_KEY:SECRET_KEY@host)');
  }
  const [bucket = '', ...prefixParts] = url.pathname.split('/').filter(Boolean);
  if (!BUCKET.test(bucket)) {
    return fail('must name a bucket after the host (3 to 63 lower-case letters, digits, dots or hyphens)');
  }
  for (const name of url.searchParams.keys()) {
    if (!PARAMS.has(name)) return fail(`has an unknown parameter "${name}" (known: region, forcePathStyle)`);
  }
  const region = url.searchParams.get('region') ?? 'us-east-1';
  if (!REGION.test(region)) return fail('region must be a region name like us-east-1');
  const pathStyle = url.searchParams.get('forcePathStyle') ?? 'true';
  if (pathStyle !== 'true' && pathStyle !== 'false') return fail('forcePathStyle must be true or false');
  if (url.hash) return fail('must not have a #fragment');
  return {
    ok: true,
    location: {
      endpoint: `${scheme}://${url.host}`,
      bucket,
      prefix: prefixParts.map((p) => `${decoded(p) ?? p}/`).join(''),
      region,
      forcePathStyle: pathStyle === 'true',
      accessKeyId,
      secretAccessKey,
    },
  };
}

/** The store as a log line may name it: endpoint and bucket, never the keys. */
export function describeS3Location(location: S3Location): string {
  return `${location.endpoint}/${location.bucket}/${location.prefix}`;
}
