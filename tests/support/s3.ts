import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local S3-compatible object store for tests, speaking the S3 REST API's documented wire format
// (path-style object PUT/GET/HEAD/DELETE, XML error documents) and checking AWS Signature
// Version 4 itself, written from the AWS documentation rather than from the client the app uses,
// so a wrongly signed request fails here as it would at AWS: SignatureDoesNotMatch,
// InvalidAccessKeyId, RequestTimeTooSkewed, XAmzContentSHA256Mismatch, AccessDenied.

export type StoredObject = { bytes: Buffer; contentType: string; etag: string };

export type S3Simulator = {
  url: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Keys in the bucket and what was stored under them. */
  objects: Map<string, StoredObject>;
  /** Every request that reached the store: method, key and the answer's status. */
  requests: { method: string; key: string; status: number }[];
  /** The next `count` requests answer 503 SlowDown (the store is overloaded or down). */
  failNext(count: number): void;
  close(): Promise<void>;
};

const MAX_SKEW_MS = 15 * 60 * 1000;
const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

function xmlEscape(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

class S3Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** RFC 3986 encoding as SigV4 wants it: everything but A-Z a-z 0-9 - _ . ~ */
function uriEncode(s: string, keepSlash: boolean): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) => {
      const c = String.fromCharCode(b);
      if (/[A-Za-z0-9\-_.~]/.test(c) || (keepSlash && c === '/')) return c;
      return `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

function canonicalQuery(search: string): string {
  const pairs = [...new URLSearchParams(search)].map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)] as const);
  pairs.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/** Checks the Authorization header of a SigV4-signed request; throws the S3 error it deserves. */
function verifySignature(req: IncomingMessage, body: Buffer, sim: { region: string; accessKeyId: string; secretAccessKey: string }): void {
  const auth = req.headers.authorization;
  if (!auth) throw new S3Failure(403, 'AccessDenied', 'Access Denied');
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/s3\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) throw new S3Failure(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  const [, accessKeyId, scopeDate, region, signedHeaderList, signature] = m;
  if (accessKeyId !== sim.accessKeyId)
    throw new S3Failure(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (region !== sim.region)
    throw new S3Failure(
      400,
      'AuthorizationHeaderMalformed',
      `The authorization header is malformed; the region '${region}' is wrong; expecting '${sim.region}'`,
    );
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const d = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!d || `${d[1]}${d[2]}${d[3]}` !== scopeDate)
    throw new S3Failure(403, 'AccessDenied', 'X-Amz-Date is missing or does not match the credential scope.');
  const when = Date.UTC(+d[1], +d[2] - 1, +d[3], +d[4], +d[5], +d[6]);
  if (Math.abs(Date.now() - when) > MAX_SKEW_MS)
    throw new S3Failure(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
  const signedHeaders = signedHeaderList.split(';');
  if (!signedHeaders.includes('host') || !signedHeaders.includes('x-amz-date'))
    throw new S3Failure(403, 'AccessDenied', 'host and x-amz-date must be signed.');
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (!payloadHash) throw new S3Failure(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  if (payloadHash !== 'UNSIGNED-PAYLOAD') {
    if (!/^[0-9a-f]{64}$/.test(payloadHash))
      throw new S3Failure(400, 'InvalidArgument', 'x-amz-content-sha256 must be UNSIGNED-PAYLOAD or a SHA-256 value.');
    if (payloadHash !== sha256Hex(body))
      throw new S3Failure(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.");
  }
  const url = new URL(req.url ?? '/', 'http://store');
  const canonicalHeaders = signedHeaders
    .map((name) => {
      const raw = req.headers[name];
      if (raw === undefined) throw new S3Failure(403, 'AccessDenied', `Signed header ${name} is missing.`);
      const value = (Array.isArray(raw) ? raw.join(',') : raw).trim().replace(/\s+/g, ' ');
      return `${name}:${value}\n`;
    })
    .join('');
  // S3 signs the path as sent (each segment encoded once, no normalising).
  const canonicalRequest = [req.method, url.pathname, canonicalQuery(url.search), canonicalHeaders, signedHeaderList, payloadHash].join(
    '\n',
  );
  const scope = `${scopeDate}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${sim.secretAccessKey}`, scopeDate), region), 's3'), 'aws4_request');
  const expected = hmac(key, stringToSign);
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    throw new S3Failure(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startS3Simulator(opts: { bucket?: string; region?: string } = {}): Promise<S3Simulator> {
  const bucket = opts.bucket ?? 'quarry-pictures';
  const region = opts.region ?? 'eu-central-1';
  const accessKeyId = `AKIA${randomBytes(8).toString('hex').toUpperCase()}`;
  const secretAccessKey = randomBytes(30).toString('base64');
  const objects = new Map<string, StoredObject>();
  const requests: S3Simulator['requests'] = [];
  let failures = 0;

  function sendError(res: ServerResponse, e: S3Failure, resource: string): void {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${e.code}</Code><Message>${xmlEscape(e.message)}</Message><Resource>${xmlEscape(resource)}</Resource><RequestId>${randomBytes(8).toString('hex').toUpperCase()}</RequestId></Error>`;
    res.writeHead(e.status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(xml) });
    res.end(xml);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const body = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://store').pathname;
    const [, bucketPart = '', ...keyParts] = path.split('/');
    const key = keyParts.map((p) => decodeURIComponent(p)).join('/');
    try {
      if (failures > 0) {
        failures--;
        throw new S3Failure(503, 'SlowDown', 'Please reduce your request rate.');
      }
      verifySignature(req, body, { region, accessKeyId, secretAccessKey });
      if (decodeURIComponent(bucketPart) !== bucket) throw new S3Failure(404, 'NoSuchBucket', 'The specified bucket does not exist');
      if (!key) throw new S3Failure(405, 'MethodNotAllowed', 'Only object requests are served here.');
      switch (req.method) {
        case 'PUT': {
          const etag = `"${createHash('md5').update(body).digest('hex')}"`;
          objects.set(key, { bytes: body, contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'), etag });
          res.writeHead(200, { ETag: etag, 'Content-Length': 0 });
          res.end();
          return 200;
        }
        case 'GET':
        case 'HEAD': {
          const o = objects.get(key);
          if (!o) throw new S3Failure(404, 'NoSuchKey', 'The specified key does not exist.');
          res.writeHead(200, { 'Content-Type': o.contentType, 'Content-Length': o.bytes.byteLength, ETag: o.etag });
          res.end(req.method === 'GET' ? o.bytes : undefined);
          return 200;
        }
        case 'DELETE':
          objects.delete(key);
          res.writeHead(204);
          res.end();
          return 204;
        default:
          throw new S3Failure(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
      }
    } catch (e) {
      if (!(e instanceof S3Failure)) throw e;
      sendError(res, e, path);
      return e.status;
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).then(
      (status) => requests.push({ method: req.method ?? '', key: (req.url ?? '').split('/').slice(2).join('/'), status }),
      (e: unknown) => {
        res.writeHead(500);
        res.end(String(e));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    objects,
    requests,
    failNext(count) {
      failures = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
