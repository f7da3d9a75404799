import { type Browser, chromium, type Page } from 'playwright-core';

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
