// The weight of the login page, the first page every operator loads: at most 200 KB of JavaScript as
// transferred, compressed, every chunk of it run (no chunk fetched for nothing), its texts in the current
// language only, and no MQTT client, which loads after sign-in. Sizes, not timings: they do not depend on
// the machine. `npm run bundle -w bench` measures the same in detail, page by page.
import { ADMIN_STAFF_ID } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD } from './support/console.ts';
import { bytesOf, chunkName, isChunk, isScript, TransferLog } from './support/transfers.ts';
import { signIn, TEXTS, useConsoleSuite } from './support/ui.ts';

const LOGIN_SCRIPT_BUDGET = 200 * 1024;
/** Property names of the MQTT client (mqtt.js), which survive minification. */
const MQTT_CLIENT = /connackReceived|_setupKeepaliveManager/;

const { app, browser } = useConsoleSuite();

describe('the login page', () => {
  it('loads at most 200 KB of JavaScript, compressed and all run, in one language, without the MQTT client', async () => {
    const { context, page } = await browser.open(app.url);
    const log = await TransferLog.of(context, page);
    await page.coverage.startJSCoverage({ resetOnNavigation: false, reportAnonymousScripts: false });
    await page.goto('/login');
    await page.getByTestId('login-form').waitFor();
    await log.settled();
    const scripts = log.finished.filter(isScript);
    const ran = await page.coverage.stopJSCoverage();

    const loaded = scripts.map((t) => `${chunkName(t.url)} ${t.bytes} B ${t.encoding || 'identity'}`);
    expect(scripts.length, loaded.join('\n')).toBeGreaterThan(0);
    expect(bytesOf(scripts), loaded.join('\n')).toBeLessThanOrEqual(LOGIN_SCRIPT_BUDGET);
    for (const script of scripts.filter((t) => t.bytes > 2048)) {
      expect(script.encoding, chunkName(script.url)).toMatch(/^(br|gzip)$/);
    }

    // A chunk fetched but never evaluated (a preload of code the page does not use) fails here.
    for (const script of scripts.filter(isChunk)) {
      const coverage = ran.find((entry) => entry.url === script.url);
      expect(
        coverage?.functions[0]?.ranges[0]?.count ?? 0,
        `${chunkName(script.url)} never ran`,
      ).toBeGreaterThan(0);
    }
    const sources = ran.map((entry) => entry.source ?? '');
    expect(sources.filter((source) => MQTT_CLIENT.test(source))).toEqual([]);
    // zh-CN by default: the other languages' texts stay on the server.
    expect(sources.some((source) => source.includes(TEXTS['zh-CN'].auth.login.subtitle))).toBe(true);
    for (const lang of ['en', 'zh-TW'] as const) {
      expect(
        sources.filter((source) => source.includes(TEXTS[lang].auth.login.subtitle)),
        lang,
      ).toEqual([]);
    }

    // Signing in brings the console and, with the live channels, the MQTT client.
    await page.coverage.startJSCoverage({ resetOnNavigation: false, reportAnonymousScripts: false });
    await signIn(page, ADMIN_STAFF_ID, ADMIN_PASSWORD);
    await log.settled();
    const afterSignIn = await page.coverage.stopJSCoverage();
    expect(afterSignIn.some((entry) => MQTT_CLIENT.test(entry.source ?? ''))).toBe(true);
  });
});
