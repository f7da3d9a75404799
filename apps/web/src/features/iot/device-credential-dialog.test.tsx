import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n/i18n.ts';
import { DeviceCredentialView, type IssuedCredential } from './device-credential-dialog.tsx';

const credential = {
  stationId: 'ST-0042',
  username: 'LK-000123',
  secret: 'q2Vx_8mB-0aZr4Yt9LpWcA',
  pinSecret: '3132333435363738393031323334353637383930',
};

function render(reason: IssuedCredential['reason']): string {
  return renderToStaticMarkup(
    <DeviceCredentialView issued={{ deviceName: 'Padlock 7', reason, credential }} />,
  );
}

/** The text of a test id's element (its first text run). */
function textOf(html: string, testId: string): string | undefined {
  return new RegExp(`data-testid="${testId}"[^>]*>(?:<[^>]+>)*([^<]+)`).exec(html)?.[1];
}

describe('DeviceCredentialView', () => {
  const en = i18n.getFixedT('en', 'iot');
  beforeEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows the station id, the username and the secret, each where the installer reads it', () => {
    const html = render('register');
    expect(textOf(html, 'deviceCredential-stationId')).toBe('ST-0042');
    expect(textOf(html, 'deviceCredential-username')).toBe('LK-000123');
    expect(textOf(html, 'deviceCredential-password')).toBe(credential.secret);
    expect(textOf(html, 'deviceCredential-pinSecret')).toBe(credential.pinSecret);
    expect(html).toContain(en('credential.pinSecret'));
    expect(html).toContain('data-testid="deviceCredential-copy"');
    expect(html).toContain(en('credential.stationId'));
    expect(html).toContain(en('credential.username'));
    expect(html).toContain(en('credential.secret'));
  });

  it('warns that the secret is shown only now and must be written into the lock', () => {
    const html = render('register');
    expect(html).toContain('shown only now');
    expect(html).toContain('Write it into the lock');
  });

  it('says why the credential is shown: a registration, or a reset that ended the old secret', () => {
    expect(render('register')).toContain(en('credential.intro.register'));
    expect(render('register')).not.toContain(en('credential.intro.reset'));
    expect(render('reset')).toContain('the old one no longer works');
  });

  it('reads in the console language', async () => {
    await i18n.changeLanguage('zh-TW');
    const html = render('reset');
    expect(html).toContain('設備密鑰只顯示這一次');
    expect(html).toContain('站點編號');
  });
});
