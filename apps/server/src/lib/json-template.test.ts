import { describe, expect, it } from 'vitest';
import { jsonTemplateProblem, renderJsonTemplate } from './json-template.ts';

describe('renderJsonTemplate', () => {
  it('fills placeholders with values escaped for a JSON string', () => {
    const body = renderJsonTemplate('{"to":"{phone}","text":"{message}"}', {
      phone: '13800000000',
      message: 'Door "A"\nopen \\ 门',
    });
    expect(JSON.parse(body)).toEqual({ to: '13800000000', text: 'Door "A"\nopen \\ 门' });
  });

  it('leaves a placeholder without a value empty, and text that is no placeholder as it is', () => {
    expect(renderJsonTemplate('{"a":"{x}","b":"{ y }"}', {})).toBe('{"a":"","b":"{ y }"}');
  });
});

describe('jsonTemplateProblem', () => {
  const names = ['phone', 'message'];
  it('accepts a JSON object with known placeholders inside strings', () => {
    expect(jsonTemplateProblem('{"to":"{phone}","text":"{message}","n":1}', names)).toBeNull();
  });
  it('names an unknown placeholder', () => {
    expect(jsonTemplateProblem('{"to":"{mobile}"}', names)).toContain('{mobile}');
  });
  it('refuses a placeholder outside a string, and text that is no JSON', () => {
    expect(jsonTemplateProblem('{"to":{phone}}', names)).toContain('must be JSON');
    expect(jsonTemplateProblem('to={phone}', names)).toContain('must be JSON');
  });
  it('refuses JSON that is no object', () => {
    expect(jsonTemplateProblem('["{phone}"]', names)).toBe('must be a JSON object');
  });
});
