import { describe, expect, it } from 'vitest';
import { auditScopeOf, inAuditScope } from './audit-scope.ts';

describe('audit scope', () => {
  it('is a person when one is named, else a team when one is named, else anyone', () => {
    expect(auditScopeOf({ auditorId: 'p', auditDeptId: 't' })).toBe('person');
    expect(auditScopeOf({ auditorId: 'p', auditDeptId: null })).toBe('person');
    expect(auditScopeOf({ auditorId: null, auditDeptId: 't' })).toBe('team');
    expect(auditScopeOf({ auditorId: null, auditDeptId: null })).toBe('any');
  });

  it('holds the named person only', () => {
    const task = { auditScope: 'person', auditorId: 'p', auditDeptId: 't' } as const;
    expect(inAuditScope(task, 'p', [])).toBe(true);
    expect(inAuditScope(task, 'q', ['t'])).toBe(false);
  });

  it('holds the team and the teams below it', () => {
    const task = { auditScope: 'team', auditorId: null, auditDeptId: 'division' } as const;
    expect(inAuditScope(task, 'q', ['safety', 'division'])).toBe(true);
    expect(inAuditScope(task, 'q', ['division'])).toBe(true);
    expect(inAuditScope(task, 'q', ['track'])).toBe(false);
    expect(inAuditScope(task, 'q', [])).toBe(false);
  });

  it('holds anyone where nobody was named', () => {
    expect(inAuditScope({ auditScope: 'any', auditorId: null, auditDeptId: null }, 'q', [])).toBe(true);
  });

  it('holds nobody once the named person or team is gone', () => {
    expect(inAuditScope({ auditScope: 'person', auditorId: null, auditDeptId: 't' }, 'q', ['t'])).toBe(false);
    expect(inAuditScope({ auditScope: 'team', auditorId: null, auditDeptId: null }, 'q', [])).toBe(false);
  });
});
