/**
 * Who may audit a lock task (docs/lock-tasks.md "Audit"): the scope its creator chose is kept with the task,
 * apart from the person or team it names. When that person or team is deleted later the reference goes,
 * and the scope keeps the task closed to everyone but the administrator instead of opening it to every
 * holder of `lockTask.audit`.
 */
export type AuditScope = 'person' | 'team' | 'any';

/** The scope a task's form chooses: a named auditor, else an audit team, else any auditor. */
export function auditScopeOf(form: { auditorId: string | null; auditDeptId: string | null }): AuditScope {
  if (form.auditorId) return 'person';
  if (form.auditDeptId) return 'team';
  return 'any';
}

/**
 * Is this staff member within the task's audit scope: its named auditor, or a member of its audit team or a
 * team below it (`departmentPath`: the member's department and those above it), or anyone where none was
 * named. A scope whose person or team no longer exists holds nobody.
 */
export function inAuditScope(
  task: { auditScope: AuditScope; auditorId: string | null; auditDeptId: string | null },
  staffId: string,
  departmentPath: readonly string[],
): boolean {
  switch (task.auditScope) {
    case 'person':
      return task.auditorId !== null && task.auditorId === staffId;
    case 'team':
      return task.auditDeptId !== null && departmentPath.includes(task.auditDeptId);
    case 'any':
      return true;
  }
}
