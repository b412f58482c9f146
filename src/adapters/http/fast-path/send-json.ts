import type { ServerResponse } from 'node:http';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A JSON answer written on Node's response, byte for byte what Express's res.status(s).json(body)
 * writes with this app's settings (no ETag, no JSON spacing): the same Content-Type and
 * Content-Length, and no body for HEAD (Node drops it). Every route answers through this, since the
 * route table may answer a request without Express, where res.json does not exist. `contentType`
 * names another JSON media type (SCIM's).
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Readonly<Record<string, string>>, contentType = JSON_TYPE): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  if (headers) for (const name in headers) res.setHeader(name, headers[name]!);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
