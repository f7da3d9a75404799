import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_RESOURCES } from '../lib/i18n/all-locales.ts';

/**
 * The glossary (one term per concept, shared/GLOSSARY.md) against the texts: the console's locale files and
 * the Traditional Chinese texts the server and the contracts send (`'zh-TW': '…'`). Each entry is a variant
 * a reader met instead of the glossary's term.
 */
const REJECTED_IN_ZH_TW = [
  // remote command: 遠程指令 (Hong Kong usage), not the Taiwanese 遠端.
  { rejected: '遠端', term: '遠程' },
  // reset a password, a device secret, an IMEI: 重設, as everywhere else in zh-TW (an alarm is 復位).
  { rejected: '重置', term: '重設' },
];

/**
 * Simplified characters that have a different Traditional form, among those the zh-CN texts use (checked
 * with OpenCC's cn→t conversion). Left out: characters that Traditional Chinese writes too in common words
 * (台 in 台賬, 里 in 公里, 准 in 批准, 于, 余, 几, 后, 占, 范, 户 (Hong Kong's form), 划, 并, 挂, 采, 术).
 */
const SIMPLIFIED_ONLY =
  '与业两个为义书产仅从会传体侧储关内册写决况凑凭击则创删别办务动区协单历压参发变叠号吗启员响唤围国图场坏块处备复头实审对导将尔尝层届属带应开异张强当录径态总执扩护报拥择损换据携摄数断无旧时显暂机权条来构标栏样检欢没测浏满点状现电监盖盘码确离称筛签简类紧级纬线组经结绘给络绝统继续缀编缩网联脑脚荐获蓝装见规视览计认议记许设访证识试话询该详语误说请读负责败账资轨转载辑输边达过运还这进远连选递逻遗邮钟钥钮铁链销锁错键长门闭问间随页顶项须预频题颜驳验龄';

/** Texts that name the simplified script in its own characters: the language switch's 简体中文. */
const NAMES_OF_SIMPLIFIED = new Set(['common.json language.zh-CN']);

/** `{ a: { b: 'x' } }` → `[['a.b', 'x']]`. */
function flatten(texts: Record<string, unknown>, prefix = ''): [string, string][] {
  return Object.entries(texts).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [[path, value] as [string, string]] : flatten(value as never, path);
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

const repo = join(import.meta.dirname, '../../../..');

/** Every zh-TW text, named by where it is: locale texts by file and key, server texts by file. */
function zhTwTexts(): [string, string][] {
  const locale = Object.entries(ALL_RESOURCES['zh-TW']).flatMap(([ns, texts]) =>
    flatten(texts as Record<string, unknown>).map(
      ([key, text]) => [`${ns}.json ${key}`, text] as [string, string],
    ),
  );
  const sent = ['apps/server/src', 'packages/contracts/src'].flatMap((dir) =>
    sourceFiles(join(repo, dir)).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/'zh-TW':\s*(['`])((?:\\.|(?!\1)[^\\])*)\1/g)].map(
        (m) => [file.slice(repo.length + 1), m[2] ?? ''] as [string, string],
      ),
    ),
  );
  return [...locale, ...sent];
}

describe('zh-TW wording (glossary)', () => {
  const texts = zhTwTexts();

  it('reads the server and contracts texts too', () => {
    expect(texts.filter(([where]) => where.startsWith('packages/contracts')).length).toBeGreaterThan(100);
    expect(texts.filter(([where]) => where.startsWith('apps/server')).length).toBeGreaterThan(10);
  });

  it.each(REJECTED_IN_ZH_TW)('says $term, never $rejected', ({ rejected }) => {
    expect(
      texts.filter(([, text]) => text.includes(rejected)).map(([where, text]) => `${where}: ${text}`),
    ).toEqual([]);
  });

  it('writes no simplified character', () => {
    const simplified = new Set(SIMPLIFIED_ONLY);
    const found = texts
      .filter(([where]) => !NAMES_OF_SIMPLIFIED.has(where))
      .flatMap(([where, text]) => {
        const chars = [...text].filter((c) => simplified.has(c));
        return chars.length > 0 ? [`${where}: ${chars.join('')}`] : [];
      });
    expect(found).toEqual([]);
  });
});
