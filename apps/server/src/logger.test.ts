import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openPglite } from './db/client.ts';
import { errorMessage, loggableError } from './lib/module-logger.ts';
import { createLogger, logOutput, maskSecretQuery } from './logger.ts';

describe('request log', () => {
  it.each([
    [
      '/api/staff/verifiyVerificationcode?email=a%40b.cn&verificationCode=K7Q2ZP',
      '/api/staff/verifiyVerificationcode?email=a%40b.cn&verificationCode=***',
    ],
    ['/x?VERIFICATIONCODE=AB&token=t1&pwd=p#frag', '/x?VERIFICATIONCODE=***&token=***&pwd=***#frag'],
    ['/api/staff/sendVerificationcode?email=a%40b.cn', '/api/staff/sendVerificationcode?email=a%40b.cn'],
    // A one-time code (an alarm board's), and every name with a secret word, whatever the path.
    ['/warningRecord?code=8IouegO8LIyjxcat10HnMVpE4G6uALaN', '/warningRecord?code=***'],
    [
      '/x?pinSecret=ab&new_password=c&pin=123456789&device.token=t&a=1',
      '/x?pinSecret=***&new_password=***&pin=***&device.token=***&a=1',
    ],
    ['/x?%63ode=abc&deviceCode=D-01&pinType=1&spin=2', '/x?%63ode=***&deviceCode=D-01&pinType=***&spin=2'],
    ['/api/health', '/api/health'],
  ])('masks the values of secret query parameters: %s', (url, logged) => {
    expect(maskSecretQuery(url)).toBe(logged);
  });
});

describe('log output', () => {
  it('is readable on a terminal and JSON lines elsewhere, unless LOG_FORMAT says which', () => {
    expect(logOutput('auto', true)).toBe('pretty');
    expect(logOutput('auto', false)).toBe('json');
    expect(logOutput('json', true)).toBe('json');
    expect(logOutput('pretty', false)).toBe('pretty');
  });

  /** What a logger of that output writes for one request line carrying secrets. */
  function written(output: 'pretty' | 'json'): string {
    let text = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    const log = createLogger('info', output, sink);
    log.info(
      {
        req: {
          method: 'GET',
          url: '/api/staff/verifiyVerificationcode?email=a%40b.cn&verificationCode=K7Q2ZP',
          host: 'console.test:8686',
          ip: '10.0.0.9',
        },
        body: { name: 'admin', pwd: 'Secret-Passw0rd', token: 'tok-123456' },
      },
      'incoming request',
    );
    return text;
  }

  it('writes readable lines that keep secrets out', () => {
    const text = written('pretty');
    expect(text).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: incoming request /);
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text).toContain('verificationCode=***');
    expect(text).toContain('console.test:8686');
    expect(text).not.toContain('K7Q2ZP');
    expect(text).not.toContain('Secret-Passw0rd');
    expect(text).not.toContain('tok-123456');
    expect(() => JSON.parse(text)).toThrow();
  });

  it('writes one JSON object a line that keeps secrets out', () => {
    const text = written('json');
    const line = JSON.parse(text) as { msg: string; req: { url: string }; body: { pwd: string } };
    expect(line.msg).toBe('incoming request');
    expect(line.req.url).toContain('verificationCode=***');
    expect(line.body.pwd).toBe('***');
    expect(text).not.toContain('K7Q2ZP');
    expect(text).not.toContain('tok-123456');
  });
});

describe('errors in the log', () => {
  /** What statements that fail on a real database throw, as Drizzle reports them: parameters in the message. */
  async function failedStatements(): Promise<unknown[]> {
    const database = await openPglite(null);
    const failures: unknown[] = [];
    for (const statement of [
      sql`insert into no_such_table values (${'argon2id$secret-hash-value'})`,
      sql`select ${'secret-pin-918273'}::int`,
    ]) {
      failures.push(
        await database.db.execute(statement).then(
          () => null,
          (error: unknown) => error,
        ),
      );
    }
    await database.close();
    return failures;
  }

  it("write a failed statement's text and cause without its parameter values", async () => {
    const [missingTable, badValue] = await failedStatements();
    expect(String((missingTable as Error).message)).toContain('argon2id$secret-hash-value');
    expect(errorMessage(missingTable)).toBe(
      'Failed query: insert into no_such_table values ($1): relation "no_such_table" does not exist',
    );
    // A data exception quotes the value it could not take: left out too.
    expect(String((badValue as Error).cause)).toContain('secret-pin-918273');
    expect(errorMessage(badValue)).toBe(
      'Failed query: select $1::int: invalid input syntax for type integer: "…"',
    );
    let text = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    for (const output of ['json', 'pretty'] as const) {
      const log = createLogger('info', output, sink);
      for (const error of [missingTable, badValue]) {
        log.error({ err: error }, 'request failed');
        log.error({ error }, 'a job failed');
      }
    }
    expect(text).toContain('Failed query: insert into no_such_table');
    expect(text).toContain('invalid input syntax for type integer');
    expect(text).not.toContain('secret-hash-value');
    expect(text).not.toContain('secret-pin-918273');
  });

  it('keep the message, type, code and cause of any other error', () => {
    const error = Object.assign(new Error('outer', { cause: new TypeError('inner') }), { code: 'E_X' });
    expect(loggableError(error)).toMatchObject({
      type: 'Error',
      message: 'outer',
      code: 'E_X',
      cause: { type: 'TypeError', message: 'inner' },
    });
    expect(loggableError('plain')).toEqual({ message: 'plain' });
  });
});
