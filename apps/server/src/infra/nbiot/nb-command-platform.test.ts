import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ResultCode } from '@uiot/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error.ts';
import { callPlatform, type PlatformRequest } from './nb-command-platform.ts';

/** A platform on a free local port that answers with `answer`, or never when `answer` is null. */
async function platform(
  answer: { status: number; body: string } | null,
): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    if (!answer) return; // keeps the request open: a platform that does not answer
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/command`, server };
}

const request = (url: string): PlatformRequest => ({
  method: 'POST',
  url,
  headers: { 'content-type': 'application/json' },
  body: '{"payload":"01"}',
});

async function failureOf(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the call did not fail');
}

describe('callPlatform', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
  });

  it('answers the status and the parsed JSON body', async () => {
    const { url, server } = await platform({ status: 201, body: '{"commandId":"674"}' });
    servers.push(server);
    expect(await callPlatform('ChinaTelecom', request(url))).toEqual({
      status: 201,
      body: { commandId: '674' },
    });
  });

  it('counts a platform that does not answer in time as a failed attempt naming the timeout', async () => {
    const { url, server } = await platform(null);
    servers.push(server);
    const started = Date.now();
    const failure = await failureOf(callPlatform('ChinaTelecom', request(url), 300));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(failure.code).toBe(ResultCode.ServiceUnavailable);
    expect(failure.params).toEqual({ network: 'ChinaTelecom', detail: 'timeout' });
  });

  it('counts a platform that cannot be reached as a failed attempt naming it unreachable', async () => {
    const { url, server } = await platform(null);
    await new Promise((resolve) => server.close(resolve));
    const failure = await failureOf(callPlatform('ChinaMobile', request(url), 2_000));
    expect(failure.code).toBe(ResultCode.ServiceUnavailable);
    expect(failure.params).toEqual({ network: 'ChinaMobile', detail: 'unreachable' });
  });
});
