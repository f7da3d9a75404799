import { type Browser, chromium, type Page, type Request } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * The host name the browser reaches the console by. Browsers treat localhost and 127.0.0.1 as secure
 * whatever the scheme; an operator's machine reaches the console by another name or address, where plain
 * HTTP is not secure (no crypto.randomUUID or clipboard, no HTTPS upgrade of the console's own files).
 */
export const CONSOLE_HOST = 'console.test';

/**
 * Debian's Chromium, headless, with no traffic of its own (the machine has no outside network), resolving
 * CONSOLE_HOST to this machine.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      `--host-resolver-rules=MAP ${CONSOLE_HOST} 127.0.0.1`,
    ],
  });
}

/** The console's address as a browser on another machine has it: CONSOLE_HOST on the server's port. */
export function consoleAddress(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.hostname = CONSOLE_HOST;
  return url.origin;
}

/** Refuses a base URL on a loopback name: the browser tests see the console as another machine would. */
export function checkConsoleAddress(baseURL: string): void {
  if (new URL(baseURL).hostname !== CONSOLE_HOST) {
    throw new Error(`browser tests open the console at ${CONSOLE_HOST} (consoleAddress), not at ${baseURL}`);
  }
}

/** Fails the test on any uncaught error in the page. */
export function watchPageErrors(page: Page): Error[] {
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  return errors;
}

/** What a page did last: its requests (with how long each took, or that it is still pending) and console messages. */
export interface PageActivity {
  /** The lines of the last requests and console messages, oldest first, each with its time since `since`. */
  lines(): string[];
}

const ACTIVITY_LINES = 40;

/**
 * Records a page's last requests and console messages, for the report of a test that failed: a step that
 * waited in vain shows whether the page was waiting on the server, had failed a request or logged an error.
 * URLs are kept without their query or fragment, in console messages too; request bodies and headers
 * (tokens, passwords) are not kept.
 */
export function watchPageActivity(page: Page): PageActivity {
  const since = Date.now();
  const at = () => `+${((Date.now() - since) / 1000).toFixed(2)}s`;
  /** A line of the report; a request's ends when it finished, until then it says how long it has waited. */
  interface Entry {
    at: string;
    text: string;
    request?: { t: number; end: string | null };
  }
  const entries: Entry[] = [];
  const keep = (entry: Entry) => {
    entries.push(entry);
    if (entries.length > ACTIVITY_LINES) entries.shift();
  };
  const pending = new Map<Request, NonNullable<Entry['request']>>();
  const pathOf = (request: Request) => {
    const url = new URL(request.url());
    // A data: URL's path is its whole payload.
    return `${request.method()} ${url.protocol === 'data:' ? 'data:…' : url.pathname}`;
  };
  page.on('request', (request) => {
    const record = { t: Date.now(), end: null };
    pending.set(request, record);
    keep({ at: at(), text: pathOf(request), request: record });
  });
  const finish = (request: Request, outcome: string) => {
    const record = pending.get(request);
    if (!record) return;
    pending.delete(request);
    record.end = `${outcome} after ${Date.now() - record.t} ms`;
  };
  // The response at hand, not `response()`: that asks the browser, which fails once the context is closed.
  page.on('requestfinished', (request) =>
    finish(request, `${request.existingResponse()?.status() ?? 'no answer'}`),
  );
  page.on('requestfailed', (request) =>
    finish(request, `failed (${request.failure()?.errorText ?? 'unknown'})`),
  );
  page.on('console', (message) => {
    // Without the query or fragment of any URL in it (a board link's code, a handed-over token).
    const text = message
      .text()
      .replace(/[?#][^\s'"]*/g, '')
      .slice(0, 300);
    keep({ at: at(), text: `console.${message.type()}: ${text}` });
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) keep({ at: at(), text: `at ${new URL(frame.url()).pathname}` });
  });
  return {
    lines: () =>
      entries.map(({ at, text, request }) => {
        if (!request) return `${at} ${text}`;
        const waited = ((Date.now() - request.t) / 1000).toFixed(2);
        return `${at} ${text} ${request.end ?? `pending for ${waited}s`}`;
      }),
  };
}
